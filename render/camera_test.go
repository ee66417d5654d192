package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// project maps a world point to normalised device coordinates.
func project(c *camera, p mgl32.Vec3) mgl32.Vec3 {
	clip := c.proj(1280, 720).Mul4(c.view()).Mul4x1(p.Vec4(1))
	return clip.Vec3().Mul(1 / clip.W())
}

func TestCameraPutsTargetAtScreenCentre(t *testing.T) {
	for _, target := range []mgl32.Vec3{{0, 0, 0}, {12, 3, -40}, {-100, 0.75, 7}} {
		c := newCamera()
		c.follow(target, 0)
		ndc := project(&c, target)
		if math.Abs(float64(ndc.X())) > 1e-5 || math.Abs(float64(ndc.Y())) > 1e-5 {
			t.Errorf("target %v lands at NDC %v, want the centre", target, ndc)
		}
		if ndc.Z() <= -1 || ndc.Z() >= 1 {
			t.Errorf("target %v is outside the depth range: z=%v", target, ndc.Z())
		}
		// A point above the target is drawn above the centre.
		if up := project(&c, target.Add(mgl32.Vec3{0, 1, 0})); up.Y() <= 0 {
			t.Errorf("a point above the target projects below the centre: %v", up)
		}
	}
}

func TestCameraFollowIsSmoothAndFrameRateIndependent(t *testing.T) {
	a, b := newCamera(), newCamera()
	a.follow(mgl32.Vec3{}, 0.016)
	b.follow(mgl32.Vec3{}, 0.016)
	goal := mgl32.Vec3{4, 0, 0}
	// One 0.1 s frame or ten 0.01 s frames end at the same place.
	a.follow(goal, 0.1)
	for range 10 {
		b.follow(goal, 0.01)
	}
	if d := a.target.Sub(b.target).Len(); d > 1e-4 {
		t.Errorf("after 0.1 s: %v vs %v", a.target, b.target)
	}
	if x := a.target.X(); x <= 0 || x >= 4 {
		t.Errorf("target x = %v after 0.1 s, want strictly between 0 and 4", x)
	}
	want := 4 * (1 - math.Exp(-camFollowRate*0.1))
	if math.Abs(float64(a.target.X())-want) > 1e-4 {
		t.Errorf("target x = %v, want %v", a.target.X(), want)
	}
	// It converges.
	for range 300 {
		a.follow(goal, 1.0/60)
	}
	if d := a.target.Sub(goal).Len(); d > 1e-3 {
		t.Errorf("after 5 s the target is %v m from the goal", d)
	}
}

func TestCameraSnapsOnFirstFrameAndLongJumps(t *testing.T) {
	c := newCamera()
	c.follow(mgl32.Vec3{5, 1, 5}, 0.016)
	if c.target != (mgl32.Vec3{5, 1, 5}) {
		t.Errorf("first frame: target %v, want a snap", c.target)
	}
	far := mgl32.Vec3{5, 1, 5 + camSnapDist + 1}
	c.follow(far, 0.016)
	if c.target != far {
		t.Errorf("long jump: target %v, want a snap to %v", c.target, far)
	}
	c.follow(mgl32.Vec3{float32(math.NaN()), 0, 0}, 0.016)
	if !finite3(c.target) {
		t.Errorf("a NaN follow point poisoned the camera: %v", c.target)
	}
}

func TestCameraOrbitAndZoomStayInLimits(t *testing.T) {
	c := newCamera()
	c.orbit(0, 10)
	if c.pitch != camMaxPitch {
		t.Errorf("pitch %v, want clamped to %v", c.pitch, camMaxPitch)
	}
	c.zoom(1000)
	if c.dist != camMaxDist {
		t.Errorf("dist %v, want clamped to %v", c.dist, camMaxDist)
	}
	if d := c.eye().Sub(c.target).Len(); math.Abs(float64(d-camMaxDist)) > 1e-3 {
		t.Errorf("eye is %v from the target, want %v", d, camMaxDist)
	}
}
