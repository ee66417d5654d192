package predict

import "github.com/cubelab/cube/physics"

// ViewRing is how many kept snapshot views each end holds: with one kept
// every KeepEvery ticks, 64 cover 8 s at 64 Hz, longer than any round
// trip the presets make.
const ViewRing = 64

// KeepEvery is how many ticks apart the server marks snapshots to keep.
const KeepEvery = 8

// view is what a client holds of the server's bodies as of a snapshot: its
// baseline's view with the snapshot's bodies replaced (see package wire).
// Static bodies are never sent; they stay as built.
type view struct {
	tick   uint32
	valid  bool
	bodies []physics.BodyState
}

// views holds the session's first view and the newest ViewRing kept ones.
type views struct {
	start view
	ring  [ViewRing]view
	next  int // slot the next kept view goes to
}

// reset makes s the first view, at tick, and forgets every other.
func (v *views) reset(tick uint32, s *physics.State) {
	v.start.tick, v.start.valid = tick, true
	v.start.bodies = append(v.start.bodies[:0], s.Bodies...)
	for i := range v.ring {
		v.ring[i].valid = false
	}
}

// get returns the view of tick t, if held.
func (v *views) get(t uint32) *view {
	for i := range v.ring {
		if x := &v.ring[i]; x.valid && x.tick == t {
			return x
		}
	}
	if v.start.valid && v.start.tick == t {
		return &v.start
	}
	return nil
}

// newest returns the newest view held.
func (v *views) newest() *view {
	var best *view
	for i := range v.ring {
		if x := &v.ring[i]; x.valid && (best == nil || After(x.tick, best.tick)) {
			best = x
		}
	}
	if best == nil && v.start.valid {
		return &v.start
	}
	return best
}

// keep stores a copy of bodies as the view of tick t, over the oldest.
func (v *views) keep(t uint32, bodies []physics.BodyState) {
	x := &v.ring[v.next]
	v.next = (v.next + 1) % ViewRing
	x.tick, x.valid = t, true
	x.bodies = append(x.bodies[:0], bodies...)
}
