package physics

import (
	"math"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func vecNear(a, b Vec3, eps float64) bool {
	return near(a.X, b.X, eps) && near(a.Y, b.Y, eps) && near(a.Z, b.Z, eps)
}

func TestAxisTurnQuarter(t *testing.T) {
	// t = 1: a quarter turn about +Y takes +X to -Z.
	if got := AxisTurn(Vec3{0, 1, 0}, 1).Rotate(Vec3{1, 0, 0}); !vecNear(got, Vec3{0, 0, -1}, 1e-15) {
		t.Fatalf("quarter turn of +X = %v, want (0, 0, -1)", got)
	}
	// t = √2 - 1 = tan(π/8): an eighth turn.
	s := math.Sqrt(0.5)
	if got := AxisTurn(Vec3{0, 1, 0}, math.Sqrt2-1).Rotate(Vec3{1, 0, 0}); !vecNear(got, Vec3{s, 0, -s}, 1e-15) {
		t.Fatalf("eighth turn of +X = %v, want (%v, 0, %v)", got, s, -s)
	}
}

func TestRotateMatchesMatrix(t *testing.T) {
	q, _ := Quat{0.3, -0.5, 0.7, 0.2}.Normalize()
	m := rotationMat(q)
	v := Vec3{1.5, -2, 0.25}
	a, b := q.Rotate(v), m.MulVec(v)
	if !vecNear(a, b, 1e-14) {
		t.Fatalf("quaternion rotate %v != matrix %v", a, b)
	}
	if back := m.MulTVec(b); !vecNear(back, v, 1e-14) {
		t.Fatalf("transpose does not invert: %v != %v", back, v)
	}
}

func TestIntegrateSpinsAtTheRightRate(t *testing.T) {
	// Spin at π/2 rad/s about Z for 1 s in 1024 small steps: about a quarter
	// turn, and the quaternion stays unit length.
	q := Identity
	for i := 0; i < 1024; i++ {
		q = q.Integrate(Vec3{0, 0, math.Pi / 2}, 1.0/1024)
	}
	if n := q.Norm(); !near(n, 1, 1e-15) {
		t.Fatalf("norm after integration = %v", n)
	}
	if got := q.Rotate(Vec3{1, 0, 0}); !vecNear(got, Vec3{0, 1, 0}, 2e-3) {
		t.Fatalf("after a quarter turn +X went to %v, want about (0, 1, 0)", got)
	}
}

func TestSandwichIsInverseInertia(t *testing.T) {
	q, _ := Quat{0.9, 0.1, -0.3, 0.2}.Normalize()
	r := rotationMat(q)
	d := Vec3{2, 3, 5}
	m := sandwich(&r, d)
	// Applying R diag(d) Rᵀ to R e_x must give d.x * R e_x.
	ex := r.Col(0)
	if got := m.MulVec(ex); !vecNear(got, ex.Scale(2), 1e-14) {
		t.Fatalf("sandwich(R, d) R e_x = %v, want %v", got, ex.Scale(2))
	}
}
