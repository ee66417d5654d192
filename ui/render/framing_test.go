package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// column returns the corners of a column of n unit boxes on the ground
// at x, z.
func column(x, z float32, n int) []mgl32.Vec3 {
	var out []mgl32.Vec3
	for i := range n {
		for _, c := range [][3]float32{{-0.5, 0, -0.5}, {0.5, 1, 0.5}} {
			out = append(out, mgl32.Vec3{x + c[0], float32(i) + c[1], z + c[2]})
		}
	}
	return out
}

// TestFitViewFramesATallStack: a stack of ten boxes beside the followed
// cube is cut off at the top by the default view and whole in the fitted
// one, at 16:9 and 4:3; without points the view is the default.
func TestFitViewFramesATallStack(t *testing.T) {
	target := mgl32.Vec3{3, 0.5, 0}
	pts := column(0, 0, 10)
	for _, sz := range [][2]int{{1280, 720}, {640, 480}, {480, 270}} {
		def := camera{target: target, yaw: camYaw, pitch: camPitch, dist: camDist}
		if holds(def.proj(sz[0], sz[1]).Mul4(def.view()), pts) {
			t.Fatalf("%v: the default view holds the stack: the test's premise is off", sz)
		}
		v := FitView(target, pts, sz[0], sz[1])
		c := camera{target: target, yaw: v.Yaw, pitch: v.Pitch, dist: v.Dist}
		if !holds(c.proj(sz[0], sz[1]).Mul4(c.view()), pts) {
			t.Errorf("%v: view %+v does not hold the stack", sz, v)
		}
		if v.Dist <= camDist || v.Dist >= camMaxDist {
			t.Errorf("%v: distance %v, want between the default and the farthest", sz, v.Dist)
		}
	}
	if v := FitView(target, nil, 1280, 720); v != DefaultView() {
		t.Errorf("no points: %+v, want the default", v)
	}
}

// TestFitViewSeesACornerCubeFromOutside: a cube at a corner of a block of
// boxes is seen from its own side: the camera is farther from the block's
// centre than the cube.
func TestFitViewSeesACornerCubeFromOutside(t *testing.T) {
	var pts []mgl32.Vec3
	for x := range 10 {
		for z := range 10 {
			pts = append(pts, column(float32(x)*1.2-6, float32(z)*1.2-6, 3)...)
		}
	}
	target := mgl32.Vec3{-6, 0.5, -6}
	v := FitView(target, pts, 1280, 720)
	c := camera{target: target, yaw: v.Yaw, pitch: v.Pitch, dist: v.Dist}
	eye := c.eye()
	if d2 := eye[0]*eye[0] + eye[2]*eye[2]; d2 <= 2*36 {
		t.Errorf("eye %v is not outside the block's corner (view %+v)", eye, v)
	}
}
