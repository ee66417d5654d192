package server

import (
	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// serverTick is what the server did at one tick, for relays.
type serverTick struct {
	ins    [game.MaxPlayers]game.Input
	events []game.Event
	skip   bool
}

// serverHistory is the server's record of its last tick.RingSize ticks: what it
// applied and the hash after each.
type serverHistory struct {
	ticks  tick.Ring[serverTick]
	hashes tick.Ring[uint64] // hash of the state labelled t
}

// rec returns the record of tick t, cleared.
func (h *serverHistory) rec(t uint32) *serverTick {
	r := h.ticks.Put(t)
	r.ins, r.skip = [game.MaxPlayers]game.Input{}, false
	r.events = r.events[:0]
	return r
}

// skip records that tick t was skipped.
func (h *serverHistory) skip(t uint32) { h.rec(t).skip = true }

// put records the hash of w's state, labelled with its tick.
func (h *serverHistory) Put(w *physics.World) { *h.hashes.Put(w.Tick()) = w.Hash() }

// hash returns the hash of the state labelled t (which must be held).
func (h *serverHistory) hash(t uint32) uint64 {
	v, _ := h.hashes.Get(t)
	return *v
}
