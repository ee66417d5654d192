package game

import (
	"fmt"
	"math"

	"github.com/cubelab/cube/physics"
)

// Bounds are the largest values a body of a scene can reach, with a wide
// margin: a body state beyond them cannot come from the engine running the
// scene, so a client refuses it (see netcode/wire/doc.go, Bounds). They keep every
// value a client takes from the network far from where a step could
// overflow.
type Bounds struct {
	Pos   float64 // |each coordinate| of a position, m
	Speed float64 // |each component| of a velocity, m/s
	Spin  float64 // |each component| of an angular velocity, rad/s
	// Impulse bounds |each component| of a contact's impulses and of a
	// nudge, N·s: what stops every moving body of the scene at Speed.
	Impulse float64
	// Force and Torque bound |each component| of a body's accumulated
	// force, N, and torque, N·m: Impulse in one tick, and that at the
	// largest half extent.
	Force, Torque float64
}

// The margins of Bounds: stated here and nowhere else.
const (
	// BoundsTravel is how far beyond the scene as built a body may go: a
	// cube driven at its top speed (a few m/s) for hours on an open floor
	// stays well inside.
	BoundsTravel = 100_000 // m
	// BoundsPush is the speed pushes, nudges and contacts may add to a
	// fall.
	BoundsPush = 100 // m/s
	// boundsMinHalf is the least half extent Spin is derived with.
	boundsMinHalf = 0.01 // m
)

// BoundsOf returns the bounds of the scene built as w (its state as built)
// with options o:
//   - Pos: the farthest coordinate of any body, half extent included, plus
//     BoundsTravel;
//   - Speed: the speed of a fall through twice Pos under the world's
//     gravity, plus BoundsPush;
//   - Spin: Speed over the smallest half extent of a moving body, the spin
//     at which its corners would move at Speed.
//
// A quantised scene puts every moving body on its grid after every step,
// so its bounds are the grid's (±4096 m, ±64 m/s and rad/s) when those are
// tighter.
func BoundsOf(w *physics.World, o Options) Bounds {
	reach, minHalf, maxHalf, mass := 1.0, math.Inf(1), 1.0, 1.0
	for i := range w.NumBodies() {
		b, h := w.Body(i), w.Half(i)
		far := max(math.Abs(b.Pos.X), math.Abs(b.Pos.Y), math.Abs(b.Pos.Z)) + max(h.X, h.Y, h.Z)
		reach = max(reach, far)
		if !w.Static(i) {
			minHalf = min(minHalf, h.X, h.Y, h.Z)
			maxHalf = max(maxHalf, h.X, h.Y, h.Z)
			mass += w.Mass(i)
		}
	}
	minHalf = max(boundsMinHalf, minHalf)
	if math.IsInf(minHalf, 1) {
		minHalf = boundsMinHalf
	}
	g := w.Config().Gravity
	grav := max(1, math.Sqrt(mul(g.X, g.X)+mul(g.Y, g.Y)+mul(g.Z, g.Z)))
	var bd Bounds
	bd.Pos = reach + BoundsTravel
	bd.Speed = math.Sqrt(2*grav*2*bd.Pos) + BoundsPush
	bd.Spin = bd.Speed / minHalf
	bd.Impulse = mul(mass, bd.Speed)
	bd.Force = bd.Impulse / w.Config().Dt
	bd.Torque = mul(bd.Force, maxHalf)
	if o.Quantize {
		bd.Pos = min(bd.Pos, float64(PosLimit)/PosUnits)
		bd.Speed = min(bd.Speed, float64(VelLimit)/VelUnits)
		bd.Spin = min(bd.Spin, float64(VelLimit)/VelUnits)
	}
	return bd
}

// Check returns an error naming the first value of b beyond the bounds
// (a NaN or an infinity is beyond every bound), or nil.
func (bd Bounds) Check(b *physics.BodyState) error {
	if inside(b.Pos, bd.Pos) && inside(b.Vel, bd.Speed) && inside(b.AngVel, bd.Spin) &&
		inside(b.Force, bd.Force) && inside(b.Torque, bd.Torque) {
		return nil // the common case, without building a message
	}
	if err := within("position", b.Pos, bd.Pos); err != nil {
		return err
	}
	if err := within("velocity", b.Vel, bd.Speed); err != nil {
		return err
	}
	if err := within("angular velocity", b.AngVel, bd.Spin); err != nil {
		return err
	}
	if err := within("force", b.Force, bd.Force); err != nil {
		return err
	}
	return within("torque", b.Torque, bd.Torque)
}

// CheckContact returns an error naming the first impulse of c beyond the
// bounds, or nil.
func (bd Bounds) CheckContact(c *physics.ContactState) error {
	return within("contact impulse", physics.Vec3{X: c.Pn, Y: c.Pt1, Z: c.Pt2}, bd.Impulse)
}

// CheckEvent returns an error if e's impulse is beyond the bounds.
func (bd Bounds) CheckEvent(e Event) error {
	return within("nudge impulse", e.Impulse, bd.Impulse)
}

// inside reports whether every component of v is within ±lim (a NaN is
// not).
func inside(v physics.Vec3, lim float64) bool {
	return math.Abs(v.X) <= lim && math.Abs(v.Y) <= lim && math.Abs(v.Z) <= lim
}

// within returns an error unless every component of v is within ±lim.
func within(what string, v physics.Vec3, lim float64) error {
	for _, x := range [3]float64{v.X, v.Y, v.Z} {
		if !(math.Abs(x) <= lim) {
			return fmt.Errorf("game: a %s component of %g, beyond the scene's bound of %g", what, x, lim)
		}
	}
	return nil
}
