package game

import (
	"math"

	"github.com/cubelab/cube/physics"
)

// The quantisation grid of Options.Quantize, after Glenn Fiedler's
// networked physics demo: positions in 1/4096 m, rotations as the smallest
// three components of the quaternion in 15 bits each (sign included),
// velocities in 1/1024 m/s and rad/s, all bounded. A quantised scene puts
// every moving body on the grid after every step, on the server and on the
// client alike, so that a state sent on the grid is exactly the state
// simulated.
const (
	PosUnits = 4096      // grid units per metre
	PosLimit = 1<<24 - 1 // |units|: ±4096 m
	VelUnits = 1024      // grid units per m/s and per rad/s
	VelLimit = 1<<16 - 1 // |units|: ±64 m/s and rad/s
	RotLimit = 1<<14 - 1 // |code| of a smallest-three component: 15 bits with the sign
	// RotRange bounds the three smallest components of a unit quaternion
	// (at most 1/√2 = 0.70710678...).
	RotRange = 0.7072
	rotScale = RotLimit / RotRange // code per unit
	rotStep  = RotRange / RotLimit // unit per code
)

// gridUnits returns x in grid units (units per unit), rounded to the
// nearest and clamped to ±limit.
func gridUnits(x, units float64, limit int32) int32 {
	k := math.Round(x * units) // a power of two: exact
	switch {
	case k != k:
		return 0 // NaN: Go leaves its conversion to int32 to the CPU
	case k > float64(limit):
		return limit
	case k < -float64(limit):
		return -limit
	}
	return int32(k)
}

// PosGrid returns position coordinate x in grid units.
func PosGrid(x float64) int32 { return gridUnits(x, PosUnits, PosLimit) }

// VelGrid returns a velocity component in grid units.
func VelGrid(x float64) int32 { return gridUnits(x, VelUnits, VelLimit) }

// RotCode is a rotation in smallest-three form: the index of the largest
// component, which is positive and follows from the others, and the codes
// of the other three in index order.
type RotCode struct {
	Largest uint8
	K       [3]int32
}

// Quat returns the rotation a code stands for. The largest component is
// sqrt(1 - a² - b² - c²), with every product rounded: the same bits on
// every CPU.
func (c RotCode) Quat() physics.Quat {
	var s [3]float64
	d := 1.0
	for j, k := range c.K {
		s[j] = float64(k) * rotStep
		d -= mul(s[j], s[j])
	}
	big := 0.0
	if d > 0 {
		big = math.Sqrt(d)
	}
	var q [4]float64
	j := 0
	for i := range q {
		if i == int(c.Largest) {
			q[i] = big
			continue
		}
		q[i] = s[j]
		j++
	}
	return physics.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
}

// rotCode quantises q with largest component l (made positive).
func rotCode(q physics.Quat, l int) RotCode {
	v := [4]float64{q.W, q.X, q.Y, q.Z}
	sign := 1.0
	if v[l] < 0 {
		sign = -1
	}
	c := RotCode{Largest: uint8(l)}
	j := 0
	for i, x := range v {
		if i == l {
			continue
		}
		k := math.Round(sign * x * rotScale)
		if k != k {
			k = 0 // NaN: Go leaves its conversion to int32 to the CPU
		}
		c.K[j] = int32(max(-RotLimit, min(RotLimit, k)))
		j++
	}
	return c
}

// largest returns the index of q's component of largest magnitude, the
// lowest index on a tie.
func largest(q physics.Quat) int {
	v := [4]float64{q.W, q.X, q.Y, q.Z}
	l := 0
	for i := 1; i < 4; i++ {
		if math.Abs(v[i]) > math.Abs(v[l]) {
			l = i
		}
	}
	return l
}

// QuantizeRot returns q on the grid. A q already on the grid comes back
// unchanged: near a tie between two components (a quarter turn about an
// axis), quantising from the other largest component would give another
// point of the grid, and a resting cube would flip between the two.
func QuantizeRot(q physics.Quat) physics.Quat {
	if _, ok := EncodeRot(q); ok {
		return q
	}
	return rotCode(q, largest(q)).Quat()
}

// EncodeRot returns a code whose Quat is exactly q, for q on the grid (as
// QuantizeRot returns it), and false for a q off the grid. It tries the
// components from the largest down, so that a near tie between two
// components, which quantising may turn round, still finds the code.
func EncodeRot(q physics.Quat) (RotCode, bool) {
	v := [4]float64{q.W, q.X, q.Y, q.Z}
	var order [4]int
	for i := range order {
		order[i] = i
	}
	for i := 1; i < 4; i++ { // insertion sort by magnitude, stable: lower index first on ties
		for j := i; j > 0 && math.Abs(v[order[j]]) > math.Abs(v[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, l := range order {
		if v[l] < 0 {
			continue // a code's largest component is never negative
		}
		c := rotCode(q, l)
		if sameBits(c.Quat(), q) {
			return c, true
		}
	}
	return RotCode{}, false
}

// sameBits reports whether a and b hold the same bits (-0 is not +0).
func sameBits(a, b physics.Quat) bool {
	f := math.Float64bits
	return f(a.W) == f(b.W) && f(a.X) == f(b.X) && f(a.Y) == f(b.Y) && f(a.Z) == f(b.Z)
}

// QuantizeBody puts b's position, rotation and velocities on the grid.
func QuantizeBody(b *physics.BodyState) {
	p := func(x float64) float64 { return float64(PosGrid(x)) / PosUnits }
	v := func(x float64) float64 { return float64(VelGrid(x)) / VelUnits }
	b.Pos = physics.Vec3{X: p(b.Pos.X), Y: p(b.Pos.Y), Z: p(b.Pos.Z)}
	b.Rot = QuantizeRot(b.Rot)
	b.Vel = physics.Vec3{X: v(b.Vel.X), Y: v(b.Vel.Y), Z: v(b.Vel.Z)}
	b.AngVel = physics.Vec3{X: v(b.AngVel.X), Y: v(b.AngVel.Y), Z: v(b.AngVel.Z)}
}

// quantize puts every dynamic body of w on the grid (a body that fell
// asleep in this step moved in it too; quantising a body already on the
// grid changes nothing).
func (sc *Scene) quantize(w *physics.World) error {
	for i := 0; i < w.NumBodies(); i++ {
		if w.Static(i) || !w.Enabled(i) {
			continue
		}
		b := w.Body(i)
		QuantizeBody(&b)
		if err := w.SetMotion(i, b.Pos, b.Rot, b.Vel, b.AngVel); err != nil {
			return err
		}
	}
	return nil
}
