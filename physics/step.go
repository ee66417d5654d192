package physics

// Step advances the world by one fixed step of Config.Dt:
//
//  1. wake the islands of bodies woken since the last step (island.go);
//  2. list the active bodies (dynamic, enabled, awake) and derive their
//     rotation, inertia and bounds from the state (collide.go);
//  3. find the pairs whose bounds overlap (broadphase.go) and their contacts
//     (manifold.go, clip.go), prepared for the solver and warm-started from
//     the cache (collide.go);
//  4. Config.Iterations substeps of the soft-step solver, then restitution
//     (solver.go);
//  5. store the contact cache, put islands at rest to sleep, clear the
//     accumulated forces and advance the tick.
//
// Bodies that are static, asleep or disabled cost the step only a look in
// the broad phase's sorted list.
func (w *World) Step() {
	w.wakeIslands()
	w.activate()
	w.findPairs()
	w.collide()
	for s := 0; s < w.cfg.Iterations; s++ {
		if s > 0 && len(w.redo) > 0 {
			w.redoContacts(s)
		}
		w.integrateVelocities()
		w.warmStart()
		w.solve(true)
		w.integratePositions()
		w.solve(false)
	}
	w.restitution()
	w.storeCache()
	for k, i := range w.active {
		b := &w.st.Bodies[i]
		b.Vel, b.AngVel = w.vel[k].v, w.vel[k].w
		b.Force, b.Torque = Vec3{}, Vec3{}
	}
	w.sleepIslands()
	w.st.Tick++
}
