package physics

import "fmt"

// dynamic returns an error unless i names a dynamic, enabled body.
func (w *World) dynamic(i int) error {
	if i < 0 || i >= len(w.shapes) {
		return fmt.Errorf("physics: body %d does not exist (have %d)", i, len(w.shapes))
	}
	if w.shapes[i].static {
		return fmt.Errorf("physics: body %d is static", i)
	}
	if w.st.Bodies[i].Disabled {
		return fmt.Errorf("body %d: %w", i, ErrDisabled)
	}
	w.touch(i)
	return nil
}

// wakeFor wakes body i unless v, the force, torque or impulse applied to it,
// is zero.
func (w *World) wakeFor(i int, v Vec3) {
	if v != (Vec3{}) {
		w.wake(i)
	}
}

// ApplyForce adds a force (N) at body i's centre of mass for the next step.
// Forces accumulate until Step consumes them. A force other than zero wakes
// the body (and so, in the step, its island).
func (w *World) ApplyForce(i int, f Vec3) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	if !f.Finite() {
		return badValue("force %v on body %d is not finite", f, i)
	}
	b := &w.st.Bodies[i]
	b.Force = b.Force.Add(f)
	w.wakeFor(i, f)
	return nil
}

// ApplyTorque adds a torque (N·m, world frame) to body i for the next step.
func (w *World) ApplyTorque(i int, t Vec3) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	if !t.Finite() {
		return badValue("torque %v on body %d is not finite", t, i)
	}
	b := &w.st.Bodies[i]
	b.Torque = b.Torque.Add(t)
	w.wakeFor(i, t)
	return nil
}

// ApplyForceAt adds a force f (N) acting at the world point p: the force at
// the centre of mass plus the torque (p - centre) × f.
func (w *World) ApplyForceAt(i int, f, p Vec3) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	if !f.Finite() || !p.Finite() {
		return badValue("force %v at %v on body %d is not finite", f, p, i)
	}
	b := &w.st.Bodies[i]
	b.Force = b.Force.Add(f)
	b.Torque = b.Torque.Add(p.Sub(b.Pos).Cross(f))
	w.wakeFor(i, f)
	return nil
}

// ApplyImpulse changes body i's linear velocity at once by j/m (j in N·s).
func (w *World) ApplyImpulse(i int, j Vec3) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	if !j.Finite() {
		return badValue("impulse %v on body %d is not finite", j, i)
	}
	b := &w.st.Bodies[i]
	b.Vel = b.Vel.AddScaled(j, w.shapes[i].invMass)
	w.wakeFor(i, j)
	return nil
}

// ApplyImpulseAt applies the impulse j (N·s) at the world point p, changing
// both linear and angular velocity at once.
func (w *World) ApplyImpulseAt(i int, j, p Vec3) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	if !j.Finite() || !p.Finite() {
		return badValue("impulse %v at %v on body %d is not finite", j, p, i)
	}
	b := &w.st.Bodies[i]
	r := rotationMat(b.Rot)
	inv := sandwich(&r, w.shapes[i].invInertia)
	b.Vel = b.Vel.AddScaled(j, w.shapes[i].invMass)
	b.AngVel = b.AngVel.Add(inv.MulVec(p.Sub(b.Pos).Cross(j)))
	w.wakeFor(i, j)
	return nil
}
