package physics

import "math"

// Quat is a rotation quaternion W + Xi + Yj + Zk. Orientations are kept unit
// length; q and -q are the same rotation.
type Quat struct{ W, X, Y, Z float64 }

// Identity is the rotation that does nothing.
var Identity = Quat{W: 1}

// Mul returns the Hamilton product a*b (rotate by b, then by a).
func (a Quat) Mul(b Quat) Quat {
	return Quat{
		W: mul(a.W, b.W) - mul(a.X, b.X) - mul(a.Y, b.Y) - mul(a.Z, b.Z),
		X: mul(a.W, b.X) + mul(a.X, b.W) + mul(a.Y, b.Z) - mul(a.Z, b.Y),
		Y: mul(a.W, b.Y) - mul(a.X, b.Z) + mul(a.Y, b.W) + mul(a.Z, b.X),
		Z: mul(a.W, b.Z) + mul(a.X, b.Y) - mul(a.Y, b.X) + mul(a.Z, b.W),
	}
}

// Dot returns the four-dimensional dot product of a and b.
func (a Quat) Dot(b Quat) float64 {
	return mul(a.W, b.W) + mul(a.X, b.X) + mul(a.Y, b.Y) + mul(a.Z, b.Z)
}

// Norm returns the length of q.
func (q Quat) Norm() float64 { return math.Sqrt(q.Dot(q)) }

// Normalize returns q scaled to unit length, and false if q has zero or
// non-finite length (q is then returned unchanged).
func (q Quat) Normalize() (Quat, bool) {
	n := q.Norm()
	if n == 0 || !finite(n) {
		return q, false
	}
	inv := 1 / n
	return Quat{mul(q.W, inv), mul(q.X, inv), mul(q.Y, inv), mul(q.Z, inv)}, true
}

// Conj returns the conjugate of q, the inverse rotation of a unit quaternion.
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Rotate returns v rotated by the unit quaternion q:
// v + 2w(u×v) + 2u×(u×v), with u the vector part.
func (q Quat) Rotate(v Vec3) Vec3 {
	u := Vec3{q.X, q.Y, q.Z}
	t := u.Cross(v).Scale(2)
	return v.AddScaled(t, q.W).Add(u.Cross(t))
}

// Finite reports whether every component is finite.
func (q Quat) Finite() bool { return finite(q.W) && finite(q.X) && finite(q.Y) && finite(q.Z) }

// Integrate returns q advanced by angular velocity w (rad/s) over dt seconds,
// q + dt/2 * (0, w) * q, renormalised. It uses no trigonometry.
func (q Quat) Integrate(w Vec3, dt float64) Quat {
	h := mul(dt, 0.5)
	d := Quat{0, w.X, w.Y, w.Z}.Mul(q)
	r := Quat{q.W + mul(d.W, h), q.X + mul(d.X, h), q.Y + mul(d.Y, h), q.Z + mul(d.Z, h)}
	if n, ok := r.Normalize(); ok {
		return n
	}
	return q
}

// AxisTurn returns the rotation about the unit axis a whose half-angle has
// tangent t, built with a square root only (no sine or cosine, which differ
// across CPUs). A quarter turn is t = 1, an eighth t = tan(π/8) = √2 - 1.
func AxisTurn(a Vec3, t float64) Quat {
	q, _ := Quat{1, mul(a.X, t), mul(a.Y, t), mul(a.Z, t)}.Normalize()
	return q
}
