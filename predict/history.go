package predict

import (
	"fmt"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/tick"
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
