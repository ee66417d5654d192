package render

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Camera defaults. The camera orbits its target at a fixed distance, yaw and
// pitch (changed with the mouse) and eases its target toward the followed
// point so that small jumps of the displayed cube do not shake the view.
const (
	camFovY        = 55.0 * math.Pi / 180 // vertical field of view, radians
	camNear        = 0.1                  // metres
	camFar         = 500.0                // metres
	camDist        = 14.0                 // default distance to the target, metres
	camMinDist     = 3.0                  // metres
	camMaxDist     = 80.0                 // metres
	camYaw         = 0.0                  // radians; 0 looks along -Z
	camPitch       = 0.45                 // radians above the horizon
	camMinPitch    = 0.05                 // radians
	camMaxPitch    = 1.45                 // radians
	camFollowRate  = 5.0                  // 1/s; horizontal catch-up rate
	camFollowRateY = 2.5                  // 1/s; slower vertically, so jumps do not bob the view
	camSnapDist    = 25.0                 // metres; farther jumps (respawn) snap at once
	camMaxDt       = 0.25                 // seconds; longer frames count as this much
)

// camera is a smoothed chase camera. Its zero value is not ready: use
// newCamera.
type camera struct {
	target     mgl32.Vec3 // smoothed point looked at
	yaw, pitch float32    // radians
	dist       float32    // metres from the target
	placed     bool       // whether target holds a position yet
}

func newCamera() camera {
	return camera{yaw: camYaw, pitch: camPitch, dist: camDist}
}

// follow moves the smoothed target toward p, frame-rate independently:
// after dt seconds the remaining gap is exp(-rate*dt) of what it was.
// The first call, and any jump over camSnapDist, snaps to p.
func (c *camera) follow(p mgl32.Vec3, dt float64) {
	if !c.placed || p.Sub(c.target).Len() > camSnapDist || !finite3(c.target) {
		c.target = p
		c.placed = true
		return
	}
	if !finite3(p) {
		return
	}
	dt = math.Max(0, math.Min(dt, camMaxDt))
	k := float32(1 - math.Exp(-camFollowRate*dt))
	ky := float32(1 - math.Exp(-camFollowRateY*dt))
	c.target[0] += (p[0] - c.target[0]) * k
	c.target[1] += (p[1] - c.target[1]) * ky
	c.target[2] += (p[2] - c.target[2]) * k
}

// orbit turns the camera around its target by dyaw and dpitch radians.
func (c *camera) orbit(dyaw, dpitch float32) {
	c.yaw += dyaw
	c.pitch = mgl32.Clamp(c.pitch+dpitch, camMinPitch, camMaxPitch)
}

// zoom multiplies the distance to the target by f, within limits.
func (c *camera) zoom(f float32) {
	c.dist = mgl32.Clamp(c.dist*f, camMinDist, camMaxDist)
}

// eye returns the camera position.
func (c *camera) eye() mgl32.Vec3 {
	sy, cy := math.Sincos(float64(c.yaw))
	sp, cp := math.Sincos(float64(c.pitch))
	back := mgl32.Vec3{float32(sy * cp), float32(sp), float32(cy * cp)}
	return c.target.Add(back.Mul(c.dist))
}

// view returns the view matrix, which puts the target at the screen centre.
func (c *camera) view() mgl32.Mat4 {
	return mgl32.LookAtV(c.eye(), c.target, mgl32.Vec3{0, 1, 0})
}

// proj returns the perspective projection for a viewport of the given size.
func (c *camera) proj(width, height int) mgl32.Mat4 {
	aspect := float32(1)
	if width > 0 && height > 0 {
		aspect = float32(width) / float32(height)
	}
	return mgl32.Perspective(camFovY, aspect, camNear, camFar)
}

func finite3(v mgl32.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
