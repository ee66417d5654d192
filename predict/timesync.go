package predict

import (
	"math"
	"time"
)

// Time sync: a client of a clocked server runs ahead of it so that its
// input for tick T reaches the server one to two ticks before T is
// simulated. Every snapshot or relay says how far ahead of the server's
// next tick the newest input of the client's newest message was when it
// arrived: the client's input buffer at the server, in ticks. The client
// keeps a running mean of it and of its spread, aims for MinBuffer plus
// twice the spread (jitter moves the arrivals both ways; a buffer that
// covers it keeps inputs from arriving late), and runs up to
// MaxSpeedChange faster or slower to get there; it jumps only when it
// starts and when the buffer is off by more than JumpTicks (an outage).
const (
	// MinBuffer is the input buffer depth the client aims for on a link
	// without jitter, ticks.
	MinBuffer = 1.5
	// MaxSpeedChange bounds how much faster or slower than the tick rate
	// the client runs.
	MaxSpeedChange = 0.05
	// JumpTicks is how far off the buffer must be before the client jumps
	// instead of drifting back.
	JumpTicks = 32
	// speedGain is the speed change per tick of error.
	speedGain = 0.02
	// bufferMean weighs a new sample into the running mean of the buffer.
	bufferMean = 0.1
	// maxJump bounds a jump ahead, in ticks.
	maxJump = 256
	// maxSpread bounds the spread the target follows, ticks.
	maxSpread = 8
)

// TimeSync is a client's estimate of where it stands against the server's
// clock.
type TimeSync struct {
	On     bool    // adjust (a clocked server); off, the client runs at the tick rate
	Buffer float64 // running mean of the input buffer at the server, ticks
	Spread float64 // running mean of the samples' distance from Buffer, ticks
	Target float64 // the buffer aimed for: MinBuffer plus twice the spread
	Last   int32   // the newest sample
	RTT    time.Duration
	Speed  float64 // this client's rate against the tick rate, 1 ± MaxSpeedChange
	Jumps  int     // jumps made (the start included)
	have   bool
	jump   int // ticks still to run at once (> 0) or to skip (< 0)
}

// sample takes a new buffer sample: heard minus the tick of the message.
func (ts *TimeSync) sample(heard, at uint32, haveHeard bool) {
	if !ts.On || !haveHeard {
		return
	}
	d := int32(heard - at)
	ts.Last = d
	if !ts.have {
		ts.Buffer, ts.have = float64(d), true
	} else {
		ts.Spread += bufferMean * (math.Abs(float64(d)-ts.Buffer) - ts.Spread)
		ts.Buffer += bufferMean * (float64(d) - ts.Buffer)
	}
	ts.Target = MinBuffer + 2*min(ts.Spread, maxSpread)
	err := ts.Buffer - ts.Target
	if math.Abs(err) > JumpTicks && ts.jump == 0 {
		// An outage, or a preset switched under it: jump back in one go
		// (forwards at most maxJump ticks at a time).
		ts.jump = min(maxJump, -int(math.Round(err)))
		ts.Buffer = ts.Target
		ts.Jumps++
		return
	}
	ts.Speed = 1 - max(-MaxSpeedChange, min(MaxSpeedChange, speedGain*err))
}

// start plans the jump at the start: the client's first tick is the
// server's tick when the Welcome left, plus the ticks it took to arrive
// (half the round trip), plus the time the client's input takes to get
// back (the other half), plus the buffer.
func (ts *TimeSync) start(rtt, tickDur time.Duration) {
	ts.Speed = 1
	if !ts.On {
		return
	}
	ts.RTT = rtt
	ts.Target = MinBuffer
	ts.jump = int(math.Ceil(float64(rtt)/float64(tickDur) + MinBuffer))
	ts.Jumps++
}

// takeJump returns the ticks to run at once (> 0) or to skip (< 0) now,
// and forgets them.
func (ts *TimeSync) takeJump() int {
	j := ts.jump
	ts.jump = 0
	return j
}
