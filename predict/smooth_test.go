package predict

import (
	"math"
	"testing"

	"github.com/cubelab/cube/physics"
)

func TestSmootherKeepsTheDisplayStillAtACorrection(t *testing.T) {
	s := NewSmoother()
	oldPos, newPos := physics.Vec3{X: 1, Y: 0.5}, physics.Vec3{X: 1.5, Y: 0.5, Z: -0.3}
	oldRot := physics.AxisTurn(physics.Vec3{Y: 1}, 0.2)
	newRot := physics.AxisTurn(physics.Vec3{Y: 1}, 0.3)
	p0, q0 := s.Display(oldPos, oldRot)
	if s.Correct(oldPos, newPos, oldRot, newRot) {
		t.Fatal("a 0.58 m correction snapped")
	}
	p1, q1 := s.Display(newPos, newRot)
	if p0.Sub(p1).Len() > 1e-12 || math.Abs(math.Abs(q0.Dot(q1))-1) > 1e-12 {
		t.Fatalf("display moved at the correction: %v -> %v, %v -> %v", p0, p1, q0, q1)
	}
}

func TestSmootherDecaysFrameRateIndependently(t *testing.T) {
	a, b := NewSmoother(), NewSmoother()
	for _, s := range []*Smoother{&a, &b} {
		s.Correct(physics.Vec3{X: 1}, physics.Vec3{}, physics.AxisTurn(physics.Vec3{Z: 1}, 0.5), physics.Identity)
	}
	a.Update(1.0 / 60)
	if p, _ := a.Offset(); math.Abs(p.X()-0.9) > 1e-12 {
		t.Fatalf("after one 1/60 s frame the offset is %v, want 0.9", p.X())
	}
	a.Update(1.0 / 60)
	b.Update(1.0 / 30) // one frame at 30 fps
	pa, qa := a.Offset()
	pb, qb := b.Offset()
	if math.Abs(pa.X()-pb.X()) > 1e-12 || math.Abs(pa.X()-0.81) > 1e-12 {
		t.Fatalf("two 60 fps frames %v, one 30 fps frame %v, want 0.81", pa.X(), pb.X())
	}
	if d := math.Abs(qa.Dot(qb)); math.Abs(d-1) > 1e-9 {
		t.Fatalf("rotation offsets differ between frame rates: %v vs %v", qa, qb)
	}
	// The rotation offset's angle shrinks to 81%: it started at half-angle
	// atan(0.5) about Z.
	if want := math.Cos(0.81 * math.Atan(0.5)); math.Abs(qa.W-want) > 1e-9 {
		t.Fatalf("rotation offset %v after two frames, want w = %v", qa, want)
	}
}

func TestSmootherSnapsAtTwoMetres(t *testing.T) {
	s := NewSmoother()
	if !s.Correct(physics.Vec3{}, physics.Vec3{X: 2}, physics.Identity, physics.Identity) {
		t.Fatal("a 2 m correction did not snap")
	}
	if p, _ := s.Offset(); p.Len() != 0 {
		t.Fatalf("offset after a snap: %v", p)
	}
	s.Enabled = false
	if !s.Correct(physics.Vec3{}, physics.Vec3{X: 0.1}, physics.Identity, physics.Identity) {
		t.Fatal("disabled smoothing did not jump")
	}
}
