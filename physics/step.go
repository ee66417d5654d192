package physics

// Step advances the world by one fixed step of Config.Dt:
//
//  1. derive rotation matrices, bounds and world inverse inertia from the
//     poses of the dynamic bodies (static bodies do not move: theirs are
//     derived whenever their pose is set);
//  2. integrate gravity and the accumulated forces and torques into the
//     velocities (semi-implicit Euler);
//  3. find contacts, warm-start them from the cache and solve them;
//  4. integrate positions and orientations with the new velocities,
//     renormalising the quaternions;
//  5. clear the accumulated forces, store the contact cache, advance the tick.
func (w *World) Step() {
	dt := w.cfg.Dt
	for i := range w.shapes {
		s := &w.shapes[i]
		if s.static {
			continue // derived when its pose was set (deriveStatics)
		}
		b := &w.st.Bodies[i]
		w.rot[i] = rotationMat(b.Rot)
		w.bounds[i] = boundsOf(s.half, &w.rot[i], b.Pos)
		w.invI[i] = sandwich(&w.rot[i], s.invInertia)
		b.Vel = b.Vel.AddScaled(w.cfg.Gravity, dt).AddScaled(b.Force, mul(s.invMass, dt))
		b.AngVel = b.AngVel.AddScaled(w.invI[i].MulVec(b.Torque), dt)
	}

	w.collide()
	w.prepare()
	w.solve()
	w.storeCache()

	for i := range w.shapes {
		if w.shapes[i].static {
			continue
		}
		b := &w.st.Bodies[i]
		b.Pos = b.Pos.AddScaled(b.Vel, dt)
		b.Rot = b.Rot.Integrate(b.AngVel, dt)
		b.AngVel = b.AngVel.Scale(w.angDamp)
		b.Force, b.Torque = Vec3{}, Vec3{}
	}
	w.st.Tick++
}

// deriveStatic recomputes the rotation matrix and bounds of body i from its
// pose. Step does it for dynamic bodies; AddBox, Restore and SetBody do it
// for static ones, the only places where a static pose can change.
func (w *World) deriveStatic(i int) {
	b := &w.st.Bodies[i]
	w.rot[i] = rotationMat(b.Rot)
	w.bounds[i] = boundsOf(w.shapes[i].half, &w.rot[i], b.Pos)
}
