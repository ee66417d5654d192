package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// View is where the camera looks from, around the followed point: its yaw
// (0 looks along -Z), its pitch above the horizon, in radians, and its
// distance in metres.
type View struct {
	Yaw, Pitch, Dist float32
}

// DefaultView returns the camera's view when nothing is to be framed.
func DefaultView() View { return View{Yaw: camYaw, Pitch: camPitch, Dist: camDist} }

// fitMargin is how far from the window's edges, in normalised device
// coordinates (1 is the edge), FitView keeps the points it frames.
const fitMargin = 0.85

// FitView returns a view of the followed point target, in a framebuffer of
// width×height pixels, that holds every one of points (a scene's bodies)
// in sight: from the side of target away from the points' centre, so that
// a followed cube at the edge of a block of bodies is seen in front of it,
// and from the least distance from the default one up that keeps them all
// within the window's margins (at most the farthest zoom). Without points
// it returns DefaultView.
func FitView(target mgl32.Vec3, points []mgl32.Vec3, width, height int) View {
	v := DefaultView()
	if len(points) == 0 || !finite3(target) {
		return v
	}
	var centre mgl32.Vec3
	for _, p := range points {
		centre = centre.Add(p)
	}
	centre = centre.Mul(1 / float32(len(points)))
	if dx, dz := target[0]-centre[0], target[2]-centre[2]; dx*dx+dz*dz > 0.25 {
		v.Yaw = float32(math.Atan2(float64(dx), float64(dz))) // back points from the centre to the target
	}
	c := camera{target: target, yaw: v.Yaw, pitch: v.Pitch, placed: true}
	proj := c.proj(width, height)
	for d := float32(camDist); d <= camMaxDist; d++ {
		c.dist = d
		if holds(proj.Mul4(c.view()), points) {
			v.Dist = d
			return v
		}
	}
	v.Dist = camMaxDist
	return v
}

// holds reports whether every point is in front of the camera of viewProj
// and within fitMargin of the window's centre.
func holds(viewProj mgl32.Mat4, points []mgl32.Vec3) bool {
	for _, p := range points {
		q := viewProj.Mul4x1(p.Vec4(1))
		if q[3] <= camNear {
			return false
		}
		if x, y := q[0]/q[3], q[1]/q[3]; x < -fitMargin || x > fitMargin || y < -fitMargin || y > fitMargin {
			return false
		}
	}
	return true
}

// SetHome makes v the camera's home, where ResetCamera (the Home key)
// puts it back, and puts the camera there now.
func (w *Window) SetHome(v View) {
	w.cam.home = v
	w.cam.reset()
}
