package physics

import "math"

// Vec3 is a vector in metres, metres per second, newtons, and so on.
type Vec3 struct{ X, Y, Z float64 }

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Neg returns -a.
func (a Vec3) Neg() Vec3 { return Vec3{-a.X, -a.Y, -a.Z} }

// Scale returns a*s, each product rounded.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{mul(a.X, s), mul(a.Y, s), mul(a.Z, s)} }

// AddScaled returns a + b*s with the products rounded before the sum.
func (a Vec3) AddScaled(b Vec3, s float64) Vec3 {
	return Vec3{a.X + mul(b.X, s), a.Y + mul(b.Y, s), a.Z + mul(b.Z, s)}
}

// Dot returns a·b, summed in X, Y, Z order.
func (a Vec3) Dot(b Vec3) float64 { return mul(a.X, b.X) + mul(a.Y, b.Y) + mul(a.Z, b.Z) }

// Cross returns a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{
		mul(a.Y, b.Z) - mul(a.Z, b.Y),
		mul(a.Z, b.X) - mul(a.X, b.Z),
		mul(a.X, b.Y) - mul(a.Y, b.X),
	}
}

// Len returns the Euclidean length of a.
func (a Vec3) Len() float64 { return math.Sqrt(a.Dot(a)) }

// Finite reports whether every component is finite.
func (a Vec3) Finite() bool { return finite(a.X) && finite(a.Y) && finite(a.Z) }

// Comp returns component i (0 X, 1 Y, 2 Z).
func (a Vec3) Comp(i int) float64 {
	switch i {
	case 0:
		return a.X
	case 1:
		return a.Y
	}
	return a.Z
}
