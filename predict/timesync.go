package predict

import (
	"math"
	"time"

	"github.com/cubelab/cube/netcode/tick"
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
// starts and when the buffer is off by more than drifting could mend in
// ConvergeTime (an outage, a preset switched to a longer or shorter
// round trip).
const (
	// MinBuffer is the input buffer depth the client aims for on a link
	// without jitter, ticks.
	MinBuffer = 1.5
	// MaxSpeedChange bounds how much faster or slower than the tick rate
	// the client runs.
	MaxSpeedChange = 0.05
	// ConvergeTime is how soon the buffer is back on target after a
	// change of the link.
	ConvergeTime = 2 * time.Second
	// JumpTicks is how far off the buffer must be before the client jumps
	// instead of drifting back: what MaxSpeedChange makes up in
	// ConvergeTime at 64 Hz, less a margin for the running mean's lag.
	JumpTicks = 5
	// speedGain is the speed change per tick of error.
	speedGain = 0.01
	// bufferMean weighs a new sample into the running mean of the buffer.
	bufferMean = 0.1
	// fastMean weighs it into the mean of the last few samples, which
	// sizes a jump.
	fastMean = 0.5
	// settleSamples is how many samples after a jump are averaged to see
	// where it landed.
	settleSamples = 4
	// maxJump bounds a jump ahead, in ticks.
	maxJump = 256
	// maxJumpBack bounds a jump back (ticks held), within the ring: a
	// server that says the buffer is 2^30 ticks deep would otherwise
	// freeze the client for 194 days.
	maxJumpBack = tick.RingSize - 64
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
	// Samples counts the samples taken: Last is new when it grows.
	Samples int
	have    bool
	jump    int     // ticks still to run at once (> 0) or to skip (< 0)
	fast    float64 // mean of the last few samples
	since   uint32  // the first input tick after the last jump: older ones tell of before it
	fresh   bool    // since is set
	settle  int     // samples still to average after a jump before steering again
	sum     float64 // their sum
	amend   bool    // the average after the jump may plan one more, to correct it
}

// sample takes a new buffer sample: heard minus the tick at of the
// message, heard telling of the client's message whose newest input was
// for tick input. A message sent before the last jump tells of a buffer
// the jump has changed since: it is left out.
func (ts *TimeSync) sample(heard, at, input uint32) {
	if !ts.On || ts.jump != 0 || ts.fresh && tick.After(ts.since, input) {
		return // off, or of inputs sent before a jump (planned or made)
	}
	d := int32(heard - at)
	ts.Last = d
	ts.Samples++
	if ts.settle > 0 {
		// Just after a jump: the first samples of inputs sent since say
		// where the buffer landed. Their mean starts the running means
		// again and, if the jump missed the target by more than a tick,
		// plans one more (once).
		ts.sum += float64(d)
		if ts.settle--; ts.settle > 0 {
			return
		}
		m := ts.sum / settleSamples
		ts.Buffer, ts.fast, ts.have = m, m, true
		if err := m - ts.Target; ts.amend && math.Abs(err) > 1 {
			ts.jump = clampJump(-int(math.Round(err)))
			ts.Jumps++
		}
		ts.amend = false
		return
	}
	if !ts.have {
		ts.Buffer, ts.fast, ts.have = float64(d), float64(d), true
	} else {
		ts.fast += float64(fastMean * (float64(d) - ts.fast))
		// A step beyond JumpTicks is the link changing, not jitter.
		if dev := math.Abs(float64(d) - ts.Buffer); dev <= JumpTicks {
			ts.Spread += float64(bufferMean * (dev - ts.Spread))
		}
		ts.Buffer += float64(bufferMean * (float64(d) - ts.Buffer))
	}
	ts.Target = MinBuffer + 2*min(ts.Spread, maxSpread)
	err := ts.Buffer - ts.Target
	if math.Abs(err) > JumpTicks {
		// An outage, or a preset switched under it: jump back in one go
		// (forwards at most maxJump ticks at a time), and take the mean
		// from the next samples. The mean lags behind a step; the mean of
		// the last few samples is where the buffer stands now.
		if off := ts.fast - ts.Target; math.Abs(off) > math.Abs(err) && off*err > 0 {
			err = off
		}
		ts.jump = max(-maxJumpBack, min(maxJump, -int(math.Round(err))))
		ts.have, ts.amend, ts.Speed = false, true, 1
		ts.Jumps++
		return
	}
	ts.Speed = 1 - max(-MaxSpeedChange, min(MaxSpeedChange, speedGain*err))
}

// clampJump bounds the jump that amends one to maxJumpBack ticks either
// way.
func clampJump(j int) int { return max(-maxJumpBack, min(maxJumpBack, j)) }

// start plans the jump at the start: the client's first tick is the
// server's tick when the Welcome left, plus the ticks it took to arrive
// (half the round trip), plus the time the client's input takes to get
// back (the other half), plus the buffer, plus the ticks the client waited
// since the Welcome (for a transfer).
func (ts *TimeSync) start(rtt, tickDur time.Duration, waited int) {
	ts.Speed = 1
	if !ts.On {
		return
	}
	ts.RTT = rtt
	ts.Target = MinBuffer
	ts.jump = min(maxJump, waited+int(math.Ceil(float64(rtt)/float64(tickDur)+MinBuffer)))
	ts.amend = true
	ts.Jumps++
}

// behind takes a server message about tick ahead ticks past the client's:
// the client is behind the server, its inputs all late, and the messages
// that would tell it by how much are ones it cannot take yet. It jumps
// ahead by that much and a round trip and the buffer more, unless a jump
// is already planned.
func (ts *TimeSync) behind(ahead uint32, tickDur time.Duration) {
	if !ts.On || ts.jump != 0 {
		return
	}
	ts.jump = min(maxJump, int(ahead)+int(math.Ceil(float64(ts.RTT)/float64(tickDur)+MinBuffer)))
	ts.have, ts.amend, ts.Speed = false, true, 1 // the running means start again after the jump
	ts.Jumps++
}

// takeJump returns the ticks to run at once (> 0) or to skip (< 0) now,
// when the client's next tick is now, and forgets them. The inputs sent
// from then on tell of the buffer after the jump.
func (ts *TimeSync) takeJump(now uint32) int {
	j := ts.jump
	ts.jump = 0
	if j != 0 {
		ts.since, ts.fresh = now+uint32(max(j, 0)), true
		ts.settle, ts.sum = settleSamples, 0
	}
	return j
}
