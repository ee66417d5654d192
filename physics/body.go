package physics

import (
	"errors"
	"fmt"
)

// BoxDef describes a box to add to a world. Start from DefaultBoxDef and
// override what differs.
type BoxDef struct {
	Half        Vec3    // half extents, m, each > 0
	Pos         Vec3    // centre, m
	Rot         Quat    // orientation; normalised on add, must not be zero
	Vel         Vec3    // initial linear velocity, m/s
	AngVel      Vec3    // initial angular velocity, rad/s
	Static      bool    // a static box never moves and has infinite mass
	Mass        float64 // kg, > 0 for a dynamic box, ignored for a static one
	Friction    float64 // Coulomb coefficient, >= 0; a pair uses sqrt(a*b)
	Restitution float64 // bounciness in [0, 1]; a pair uses the larger of the two
}

// DefaultBoxDef returns a dynamic 1 m cube of 1 kg at the origin, friction
// 0.5 and restitution 0.
func DefaultBoxDef() BoxDef {
	return BoxDef{
		Half:     Vec3{0.5, 0.5, 0.5},
		Rot:      Identity,
		Mass:     1,
		Friction: 0.5,
	}
}

// shape is the fixed configuration of one body: what never changes after
// AddBox. It is not part of State.
type shape struct {
	half        Vec3
	mass        float64 // kg, 0 for a static box
	invMass     float64
	invInertia  Vec3 // body-space diagonal of the inverse inertia tensor
	friction    float64
	restitution float64
	radius      float64 // distance from the centre to a vertex, m
	static      bool
}

// ErrBadValue is wrapped by every error about a NaN, infinite or out-of-range
// value handed to the engine.
var ErrBadValue = errors.New("bad value")

func badValue(format string, args ...any) error {
	return fmt.Errorf("physics: %s: %w", fmt.Sprintf(format, args...), ErrBadValue)
}

// validate checks d and returns its normalised orientation.
func (d *BoxDef) validate() (Quat, error) {
	if !d.Half.Finite() || d.Half.X <= 0 || d.Half.Y <= 0 || d.Half.Z <= 0 {
		return Quat{}, badValue("box half extents %v must be finite and > 0", d.Half)
	}
	if !d.Pos.Finite() || !d.Vel.Finite() || !d.AngVel.Finite() {
		return Quat{}, badValue("box position and velocities must be finite")
	}
	q, ok := d.Rot.Normalize()
	if !ok {
		return Quat{}, badValue("box orientation %v has zero or non-finite length", d.Rot)
	}
	if !d.Static && (!finite(d.Mass) || d.Mass <= 0) {
		return Quat{}, badValue("box mass %v must be finite and > 0 for a dynamic box", d.Mass)
	}
	if !finite(d.Friction) || d.Friction < 0 {
		return Quat{}, badValue("box friction %v must be finite and >= 0", d.Friction)
	}
	if !finite(d.Restitution) || d.Restitution < 0 || d.Restitution > 1 {
		return Quat{}, badValue("box restitution %v must be in [0, 1]", d.Restitution)
	}
	return q, nil
}

// newShape derives the fixed configuration of a valid box.
func newShape(d *BoxDef) shape {
	s := shape{half: d.Half, friction: d.Friction, restitution: d.Restitution, static: d.Static}
	s.radius = d.Half.Len()
	if d.Static {
		return s
	}
	// Solid box: I = m/3 * (b² + c²) with half extents a, b, c.
	x2, y2, z2 := mul(d.Half.X, d.Half.X), mul(d.Half.Y, d.Half.Y), mul(d.Half.Z, d.Half.Z)
	k := d.Mass / 3
	s.mass, s.invMass = d.Mass, 1/d.Mass
	s.invInertia = Vec3{1 / mul(k, y2+z2), 1 / mul(k, x2+z2), 1 / mul(k, x2+y2)}
	return s
}
