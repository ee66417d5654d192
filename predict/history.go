package predict

import (
	"fmt"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// KeyEvery is how often the client keeps a whole world state: before every
// tick that is a multiple of KeyEvery. Any other state it needs (to compare
// or to patch a server state into) it rebuilds from the keyframe before it,
// at most KeyEvery-1 ticks of replay. So the client's memory grows with the
// ticks in flight divided by KeyEvery, not with a world per tick.
const KeyEvery = 8

// tickRec is what the client knows of one tick: the inputs it stepped with
// (its own, and for the other players their newest known input or, once
// the server said so, the inputs the server applied), the server-only
// events before it and whether the server skipped it (input sync tells
// both), and what the step gave.
type tickRec struct {
	ins    [game.MaxPlayers]game.Input
	events []game.Event
	skip   bool
	remote bool // a relay changed another player's input here (state sync)
}

// history is the client's record of the ticks it may rewind to: a ring of
// tick records, the hash and the own-input chain of the state at each
// label, and keyframes.
type history struct {
	recs    tick.Ring[tickRec]
	hashes  tick.Ring[uint64]            // hash of the state labelled t (after tick t-1)
	chains  tick.Ring[uint64]            // own-input chain of the state labelled t
	all     tick.Ring[uint64]            // every player's input chain of the state labelled t
	players tick.Ring[physics.BodyState] // the client's cube in the state labelled t
	keys    [tick.RingSize / KeyEvery]keyframe
	spare   []*physics.State // states of keyframes no longer needed, for reuse
	// hold: while holding, release keeps the keyframes from hold on (a
	// repair in view: client_repair.go).
	hold    uint32
	holding bool

	// traces[t] is what the step of tick t changed (physics.Trace), packed
	// (physics.AppendTrace): from a keyframe, the states up to a rewind's
	// tick are rebuilt with them without simulating, and a partial replay
	// takes from them the bodies it does not re-simulate. Kept for the
	// ticks in flight, within TraceBudget bytes: the oldest stay, the
	// newest are not kept. A step records into recTr, which is then packed
	// into its tick's slot; a followed step reads its tick's trace unpacked
	// into followTr.
	traces     tick.Ring[[]byte]
	traceSize  [tick.RingSize]int // bytes held by the trace of each slot
	traceBytes int                // their sum
	traceFrom  uint32             // no tick before it holds a trace
	spareTrace [][]byte           // buffers of traces let go, for reuse
	recTr      physics.Trace
	followTr   physics.Trace
	traceCap   int // the budget of the traces' bytes, if not TraceBudget (tests)

	// jumps: the states a rewind took in place of the history's own
	// (history_jumps.go).
	jumps   tick.Ring[jump]
	jumpSet physics.Set
	// traceHold: while traceHolding, release keeps the traces from
	// traceHold on (a repair's replay follows them), until they fill
	// TraceBudget: then the hold of that repair's tick gives way
	// (spilled), and the traces go back to the ticks in flight, whose
	// corrections replay partially with them.
	traceHold    uint32
	traceHolding bool
	spilled      bool
	spilledAt    uint32
	keepFrom     uint32 // the keep of the last release, without the hold
}

// TraceBudget bounds the bytes the client's traces hold. A trace is what
// a step changed: a few kilobytes while most bodies sleep, and in the cubes
// scene while the pile is pulled about 225 kB packed (280 kB of buffer;
// 400 awake cubes, 5,000 contact entries), nearly half of it the contacts'
// impulses. A rewind goes back to the oldest tick in flight, and replays
// partially only as far as the traces go, so the budget is for the ticks
// in flight of a long link: about 150 ticks of the busy pile (2.3 s, the
// outage preset's round trip and its losses), the whole ring of a quiet
// scene. A client of the cubes scene on the outage preset then peaks at
// about 155 MB, a desktop game client's share. When the traces fill it,
// the oldest stay and a new tick's trace is not kept: the rewind replays
// partially as far as the traces go and in full after, where keeping the
// newest would leave it none to start from.
const TraceBudget = 40 << 20

// spareTraces is how many trace buffers the client keeps for reuse beyond
// the budget.
const spareTraces = 4

// recording returns the trace to record the next step into; installed
// then packs it as that step's tick.
func (h *history) recording() *physics.Trace { return &h.recTr }

// traceOf returns the trace recorded for the step of tick t, unpacked, if
// the ring holds it. It stays valid until the next traceOf.
func (h *history) traceOf(t uint32) (*physics.Trace, bool) {
	p, ok := h.traces.Get(t)
	if !ok || *p == nil {
		return nil, false
	}
	if err := physics.DecodeTrace(*p, &h.followTr); err != nil || h.followTr.Tick != t {
		return nil, false
	}
	return &h.followTr, true
}

// installed packs the trace just recorded (recording) into slot t, counts
// it, and lets it go if the traces then hold more than TraceBudget.
func (h *history) installed(t uint32) {
	p := h.traces.Put(t)
	if *p == nil {
		if n := len(h.spareTrace); n > 0 {
			*p, h.spareTrace = h.spareTrace[n-1], h.spareTrace[:n-1]
		}
	}
	*p = physics.AppendTrace((*p)[:0], &h.recTr)
	i := t % tick.RingSize
	n := cap(*p)
	h.traceBytes += n - h.traceSize[i]
	h.traceSize[i] = n
	if t-h.traceFrom >= tick.RingSize {
		h.traceFrom = t + 1 - tick.RingSize
	}
	budget := TraceBudget
	if h.traceCap > 0 {
		budget = h.traceCap
	}
	if h.traceBytes > budget && h.traceHolding {
		h.traceHolding, h.spilled, h.spilledAt = false, true, h.traceHold
		h.dropTracesBefore(h.keepFrom)
	}
	if h.traceBytes > budget {
		h.dropTrace(t)
	}
}

// dropTracesBefore gives back the traces of the ticks before keep.
func (h *history) dropTracesBefore(keep uint32) {
	if keep-h.traceFrom >= tick.RingSize {
		h.traceFrom = keep - tick.RingSize
	}
	for ; tick.After(keep, h.traceFrom); h.traceFrom++ {
		h.dropTrace(h.traceFrom)
	}
}

// dropTrace gives the trace of tick t back to the spares.
func (h *history) dropTrace(t uint32) {
	i := t % tick.RingSize
	p, ok := h.traces.Get(t)
	if !ok || *p == nil {
		return
	}
	h.traceBytes -= h.traceSize[i]
	h.traceSize[i] = 0
	h.spareTrace = append(h.spareTrace, (*p)[:0])
	*p = nil
}

// keyframe is the whole state before tick t: a multiple of KeyEvery, or
// the tick the client started from (or took a transfer at), which anchors
// the ticks after it up to the next multiple.
type keyframe struct {
	tick  uint32
	valid bool
	state *physics.State
}

// key returns the keyframe slot for the ticks from t-t%KeyEvery to the
// next multiple of KeyEvery.
func (h *history) key(t uint32) *keyframe { return &h.keys[(t/KeyEvery)%uint32(len(h.keys))] }

// saveKey keeps w's state as the keyframe of its tick, if that is a
// multiple of KeyEvery.
func (h *history) saveKey(w *physics.World) {
	if w.Tick()%KeyEvery == 0 {
		h.anchor(w)
	}
}

// dropKey lets go of the keyframe of tick t, if t is a multiple of
// KeyEvery: the state it holds is no longer the history's.
func (h *history) dropKey(t uint32) {
	if t%KeyEvery != 0 {
		return
	}
	if k := h.key(t); k.state != nil {
		h.spare = append(h.spare, k.state)
		k.state, k.valid = nil, false
	}
}

// anchor keeps w's state as the keyframe of its tick, whatever the tick:
// the state a client starts from, which it may have to rebuild the ticks
// after from before the next multiple of KeyEvery.
func (h *history) anchor(w *physics.World) {
	t := w.Tick()
	k := h.key(t)
	if k.state == nil {
		if n := len(h.spare); n > 0 {
			k.state, h.spare = h.spare[n-1], h.spare[:n-1]
		} else {
			k.state = new(physics.State)
		}
	}
	k.tick, k.valid = t, true
	w.Save(k.state)
}

// release gives back the states of the keyframes before the one at or
// before t, which no rewind can need: the client's memory follows the ticks
// in flight, not the ring's size.
func (h *history) release(t uint32) {
	keep := t - t%KeyEvery
	if held := h.hold - h.hold%KeyEvery; h.holding && tick.After(keep, held) {
		keep = held // a repair may rebuild the state of a tick from hold on
	}
	for i := range h.keys {
		k := &h.keys[i]
		if k.state != nil && (!k.valid || tick.After(keep, k.tick)) {
			h.spare = append(h.spare, k.state)
			k.state, k.valid = nil, false
		}
	}
	// Hold on to a few spares for the keyframes to come; let the rest go.
	if len(h.spare) > 4 {
		clear(h.spare[4:])
		h.spare = h.spare[:4]
	}
	// The traces of the ticks before keep, likewise, unless a repair
	// holds them.
	h.keepFrom = keep
	if h.traceHolding && tick.After(keep, h.traceHold) {
		keep = h.traceHold
	}
	h.dropTracesBefore(keep)
	if len(h.spareTrace) > spareTraces {
		clear(h.spareTrace[spareTraces:])
		h.spareTrace = h.spareTrace[:spareTraces]
	}
}

// keyBefore returns the newest keyframe at or before t, if the ring still
// holds it.
func (h *history) keyBefore(t uint32) (*keyframe, bool) {
	k := h.key(t)
	return k, k.valid && k.state != nil && k.tick/KeyEvery == t/KeyEvery && !tick.After(k.tick, t)
}

// errNoHistory is returned when a tick the client must rebuild has left its
// ring; the caller treats the server's message as too old.
var errNoHistory = fmt.Errorf("predict: that tick has left the history")
