package physics

import "slices"

// Step advances the world by one fixed step of Config.Dt:
//
//  1. wake the islands of bodies woken since the last step (island.go);
//  2. list the active bodies (dynamic, enabled, awake) and derive their
//     rotation, inertia and bounds from the state (activate.go);
//  3. find the pairs whose bounds overlap (broadphase.go) and their contacts
//     (collide.go, manifold.go, clip.go), prepared for the solver and
//     warm-started from the cache (prepare.go);
//  4. colour the contacts (graph.go) and run the solver's stage list
//     (stages.go): Config.Iterations substeps of the soft-step solver
//     (solver.go), each ending with more relax passes around heavily
//     loaded bodies (heavy.go) and the shock pass (shock.go); from the
//     second on, each first makes again the contacts of the pairs that
//     close in fast (redo.go); then restitution;
//  5. wake the sleeping boxes an active one pushed, store the contact cache
//     (cache.go), put islands at rest to sleep, clear the accumulated forces and
//     advance the tick.
//
// Bodies that are static, asleep or disabled cost the step only a look in
// the broad phase's sorted list of active bodies.
func (w *World) Step() {
	if w.reserved != len(w.shapes) {
		w.reserve()
	}
	tick := w.st.Tick
	if w.follow != nil || w.rec != nil {
		w.noteTouched()
	}
	if w.follow != nil {
		w.beginFollow()
	}
	w.wakeIslands()
	w.activate()
	if w.strace != nil {
		w.traceAt("activate", nil)
	}
	if w.follow != nil {
		w.followPairs() // partial.go
	} else {
		w.findPairs()
	}
	if w.strace != nil {
		w.traceAt("pairs", nil)
	}
	if testBreach {
		w.breach()
	}
	w.collide()
	if w.strace != nil {
		w.traceAt("contacts", nil)
	}
	w.solveStages() // the stage list, coloured (stages.go, graph.go)
	if w.follow == nil {
		w.storeCache() // a followed step writes its cache at its end (endFollow)
	}
	for k, i := range w.ctx.active {
		b := &w.st.Bodies[i]
		b.Vel, b.AngVel = w.ctx.vel[k].v, w.ctx.vel[k].w
		b.Force, b.Torque = Vec3{}, Vec3{}
	}
	if w.strace != nil {
		w.traceAt("store", nil)
	}
	w.sleepIslands()
	if w.strace != nil {
		w.traceAt("sleep", nil)
		w.strace = w.shash
	}
	w.st.Tick++
	if w.follow != nil {
		w.endFollow(tick)
	} else if w.rec != nil {
		w.capture(w.rec, tick, w.ctx.active, nil, nil, true)
	}
	w.rec = nil
	w.touched, w.woken = w.touched[:0], w.woken[:0]
	w.stepped = true
}

// breach adds the global quantity of testBreach (hooks.go).
func (w *World) breach() {
	n := mul(float64(len(w.ctx.active)), 1e-9)
	for k := range w.ctx.vel {
		w.ctx.vel[k].v.X += n
	}
}

// reserve sizes the step's buffers for the world's bodies once, with room
// for a dense pile (measured peaks per body: the cubes scene's pull 8.4
// cached contacts, 7.8 points, 2.1 contacts, 2.6 pairs; the pyramid 10.4
// points and cached contacts), about 4.5 KB a body, so that a world does not
// allocate in the steps that follow its first: the buffers only grow past
// that.
func (w *World) reserve() {
	n := len(w.shapes)
	w.reserved = n
	w.ctx.reserve(n)
	w.ctx.reserveStages(w.cfg.Iterations)
	w.st.Contacts = slices.Grow(w.st.Contacts, 12*n-len(w.st.Contacts))
	w.touched = slices.Grow(w.touched, 16) // keeps what was touched before the first step
	w.woken = slices.Grow(w.woken, 16)
	w.before = slices.Grow(w.before, 16)
	w.par.reserve(n)
}
