// Save, restore and the checks of a state: what a rewind and a state
// received from elsewhere go through.

package physics

import (
	"fmt"
	"math"
)

// Save copies the world's whole evolving state into dst, reusing dst's
// buffers: once dst is large enough it does not allocate.
func (w *World) Save(dst *State) { dst.CopyFrom(&w.st) }

// State returns the world's state. It is the world's own: read it, do not
// keep it across a Step.
func (w *World) State() *State { return &w.st }

// Restore replaces the world's evolving state with src. It refuses a state
// that does not fit this world (body count, static bodies asleep, contact
// indices, features and order) or that holds non-finite values, and then
// leaves the world unchanged.
func (w *World) Restore(src *State) error {
	if err := w.checkState(src); err != nil {
		return err
	}
	w.Load(src)
	return nil
}

// Check reports why s cannot be restored into w (body count, contact
// indices and order, non-finite values), or nil if Restore would take it.
// It changes nothing.
func (w *World) Check(s *State) error { return w.checkState(s) }

// Load replaces the world's evolving state with src without checking it:
// for a state this world saved itself and nobody changed since (a
// rewind's keyframe), or one Check accepted. Anything else may make the
// next step panic or compute garbage; use Restore.
func (w *World) Load(src *State) {
	// Derived data depends on the pose alone: setState keeps it for the
	// bodies whose pose is bit for bit the one it was derived from, and
	// derives it now for those the next step will not move (the step
	// derives the moving bodies' from their state anyway, activate).
	for i := range w.shapes {
		w.setState(i, &src.Bodies[i])
	}
	w.st.Tick = src.Tick
	w.st.Contacts = append(w.st.Contacts[:0], src.Contacts...)
	w.touched, w.woken = w.touched[:0], w.woken[:0]
	w.stepped = false
}

// samePose reports whether a and b have the same position and rotation
// bits.
func samePose(a, b *BodyState) bool {
	f := math.Float64bits
	return f(a.Pos.X) == f(b.Pos.X) && f(a.Pos.Y) == f(b.Pos.Y) && f(a.Pos.Z) == f(b.Pos.Z) &&
		f(a.Rot.W) == f(b.Rot.W) && f(a.Rot.X) == f(b.Rot.X) && f(a.Rot.Y) == f(b.Rot.Y) && f(a.Rot.Z) == f(b.Rot.Z)
}

// checkState reports why s cannot be restored into w.
func (w *World) checkState(s *State) error {
	if len(s.Bodies) != len(w.shapes) {
		return fmt.Errorf("physics: restore: state has %d bodies, world has %d", len(s.Bodies), len(w.shapes))
	}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if bodyNaN(b) != 0 || !unitRot(b) {
			return fmt.Errorf("restore: %w", checkBody(i, b))
		}
		if b.Asleep && (w.shapes[i].static || b.Disabled) {
			return badValue("restore: body %d is asleep and static or disabled", i)
		}
	}
	nb := uint32(len(w.shapes))
	var prev, bad uint64
	cs := s.Contacts
	for k := range cs {
		c := &cs[k]
		a, b, f := c.A, c.B, c.Feature
		key := contactKey(a, b, f)
		// A and B in the world (B may be Ground), B after A, a feature
		// that can name a contact of B, in key order.
		if uint32(a) >= nb || (b != Ground && (uint32(b) >= nb || b <= a)) || !validFeature(b, f) {
			return badValue("restore: contact %d names bodies %d, %d, feature %#x outside the world", k, a, b, f)
		}
		if key <= prev && k > 0 {
			return badValue("restore: contact %d is out of order", k)
		}
		prev = key
		bad |= math.Float64bits((c.Pn - c.Pn) + (c.Pt1 - c.Pt1) + (c.Pt2 - c.Pt2)) // see bodyNaN
	}
	if bad != 0 {
		return badValue("restore: a contact has a non-finite impulse")
	}
	return nil
}

// bodyNaN returns other than 0 if a value of b is NaN or infinite: x - x is
// 0 for a finite x and NaN otherwise, and a sum with a NaN is NaN. The sums
// run side by side, and the result's bits are 0 only for +0.
func bodyNaN(b *BodyState) uint64 {
	p := (b.Pos.X - b.Pos.X) + (b.Pos.Y - b.Pos.Y) + (b.Pos.Z - b.Pos.Z)
	q := (b.Rot.W - b.Rot.W) + (b.Rot.X - b.Rot.X) + (b.Rot.Y - b.Rot.Y) + (b.Rot.Z - b.Rot.Z)
	v := (b.Vel.X - b.Vel.X) + (b.Vel.Y - b.Vel.Y) + (b.Vel.Z - b.Vel.Z)
	a := (b.AngVel.X - b.AngVel.X) + (b.AngVel.Y - b.AngVel.Y) + (b.AngVel.Z - b.AngVel.Z)
	f := (b.Force.X - b.Force.X) + (b.Force.Y - b.Force.Y) + (b.Force.Z - b.Force.Z)
	t := (b.Torque.X - b.Torque.X) + (b.Torque.Y - b.Torque.Y) + (b.Torque.Z - b.Torque.Z)
	return math.Float64bits((p + q) + (v + a) + (f + t))
}

// unitRot reports whether b's orientation has unit length, within 0.001
// of its square.
func unitRot(b *BodyState) bool {
	n := b.Rot.Dot(b.Rot)
	return n >= 0.999 && n <= 1.001
}

// checkBody refuses a body state with a non-finite value or an orientation
// that is not unit length.
func checkBody(i int, b *BodyState) error {
	if bodyNaN(b) != 0 {
		return badValue("body %d has a non-finite value", i)
	}
	if !unitRot(b) {
		return badValue("body %d orientation has squared length %v, want 1", i, b.Rot.Dot(b.Rot))
	}
	return nil
}
