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

	// Obstacles (boxes with Blocks): the camera keeps camClearance from
	// them and keeps them out of its line of sight to the target. When
	// that line is blocked closer than camMinClear, it looks from higher
	// up, in camPitchStep steps; it moves in at once and back out at
	// camEaseRate.
	camClearance = 0.3  // metres; more than the near plane's half diagonal (0.13 m at 16:9)
	camMinClear  = 4.0  // metres
	camPitchStep = 0.1  // radians
	camEaseRate  = 4.0  // 1/s
	camMinView   = 0.05 // metres; never closer to the target than this
)

// camera is a smoothed chase camera. Its zero value is not ready: use
// newCamera.
type camera struct {
	target     mgl32.Vec3 // smoothed point looked at
	yaw, pitch float32    // radians, as the user set them
	dist       float32    // metres from the target, as the user set it
	placed     bool       // whether target holds a position yet

	// The pitch and distance shown, which obstacles may lower and raise;
	// valid when avoiding.
	viewPitch, viewDist float32
	avoiding            bool

	home View // where reset puts the camera

	// shift is where the target is drawn, in normalised device
	// coordinates: the centre of the part of the window the panels leave
	// free (zero: the window's centre).
	shift mgl32.Vec2
}

func newCamera() camera {
	return camera{yaw: camYaw, pitch: camPitch, dist: camDist, home: DefaultView()}
}

// reset puts the camera back to its home angle and distance behind the
// target (the reset-camera key); the next follow snaps to its point.
func (c *camera) reset() {
	c.yaw, c.pitch, c.dist = c.home.Yaw, c.home.Pitch, c.home.Dist
	c.avoiding, c.placed = false, false
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
	if c.avoiding {
		return c.target.Add(c.back(c.viewPitch).Mul(c.viewDist))
	}
	return c.target.Add(c.back(c.pitch).Mul(c.dist))
}

// back returns the unit vector from the target towards the camera at the
// current yaw and the given pitch.
func (c *camera) back(pitch float32) mgl32.Vec3 {
	sy, cy := math.Sincos(float64(c.yaw))
	sp, cp := math.Sincos(float64(pitch))
	return mgl32.Vec3{float32(sy * cp), float32(sp), float32(cy * cp)}
}

// avoid places the camera for this frame so that it is out of every box
// with Blocks and sees past them both the target and follow, the followed
// point the smoothed target trails: it looks from higher up when the line
// of sight is blocked close to the target, and it moves in front of what
// still blocks. It moves in at once, so a wall never hides the followed
// point for a frame, and back out smoothly.
func (c *camera) avoid(boxes []Box, follow mgl32.Vec3, dt float64) {
	dt = math.Max(0, math.Min(dt, camMaxDt))
	k := float32(1 - math.Exp(-camEaseRate*dt))
	if !c.avoiding {
		c.viewPitch, c.viewDist, c.avoiding = c.pitch, c.dist, true
	}
	if !finite3(follow) {
		follow = c.target
	}
	// The lowest pitch, from the user's up, that sees the target from far
	// enough; else the one that sees it from farthest.
	goal, best, goalSeen := c.pitch, float32(-1), false
	need := min(c.dist, camMinClear)
	for p := c.pitch; ; p = min(p+camPitchStep, camMaxPitch) {
		d, seen := c.seeDist(c.back(p), boxes, follow)
		if d > best || (seen && !goalSeen) {
			goal, best, goalSeen = p, d, seen
		}
		if d >= need || p >= camMaxPitch {
			if d >= need {
				goal, goalSeen = p, seen
			}
			break
		}
	}
	c.viewPitch += (goal - c.viewPitch) * k
	if math.Abs(float64(goal-c.viewPitch)) < 1e-4 {
		c.viewPitch = goal
	}
	d, seen := c.seeDist(c.back(c.viewPitch), boxes, follow)
	if !seen && goalSeen {
		// No distance at the eased pitch sees the followed point: jump.
		c.viewPitch = goal
		d, _ = c.seeDist(c.back(goal), boxes, follow)
	}
	if d < c.viewDist {
		c.viewDist = d
	} else {
		c.viewDist += (d - c.viewDist) * k
		if d-c.viewDist < 1e-3 {
			c.viewDist = d
		}
	}
}

// seeStep is how far in, in metres, seeDist moves the eye at a time to
// find where it sees the followed point.
const seeStep = 0.5

// seeDist returns how far from the target along the unit vector dir the
// camera can go, up to its distance, keeping out of the boxes with Blocks
// (clearDist) and seeing follow past them, and whether it sees follow
// there; camMinView when no distance does.
func (c *camera) seeDist(dir mgl32.Vec3, boxes []Box, follow mgl32.Vec3) (float32, bool) {
	for d := clearDist(c.target, dir, c.dist, boxes); ; d -= seeStep {
		if d <= camMinView {
			return camMinView, !hidden(c.target.Add(dir.Mul(camMinView)), follow, boxes)
		}
		if !hidden(c.target.Add(dir.Mul(d)), follow, boxes) {
			return d, true
		}
	}
}

// hidden reports whether a box with Blocks lies between eye and p. A box
// p is inside does not count: the followed point passing through a wall
// on its way is the smoothed target's case (clearDist).
func hidden(eye, p mgl32.Vec3, boxes []Box) bool {
	v := eye.Sub(p)
	l := v.Len()
	if l < 1e-6 {
		return false
	}
	v = v.Mul(1 / l)
	for i := range boxes {
		b := &boxes[i]
		if !b.Blocks {
			continue
		}
		if t, hit, inside := rayBox(p, v, b, 0); !inside && hit && t < l {
			return true
		}
	}
	return false
}

// clearDist returns how far from p along the unit vector dir the camera
// can go, up to want, staying camClearance away from every box with
// Blocks. From within a box's clearance (the smoothed target passing close
// by), that box only has to be kept out of the view; a box p is inside is
// ignored.
func clearDist(p, dir mgl32.Vec3, want float32, boxes []Box) float32 {
	d := want
	for i := range boxes {
		b := &boxes[i]
		if !b.Blocks {
			continue
		}
		t, hit, inside := rayBox(p, dir, b, camClearance)
		if inside {
			t, hit, _ = rayBox(p, dir, b, 0)
		}
		if hit && t < d {
			d = t
		}
	}
	return max(d, camMinView)
}

// rayBox returns where the ray p + t·dir (t ≥ 0) enters box b grown by
// grow on every side, whether it does, and whether p is inside.
func rayBox(p, dir mgl32.Vec3, b *Box, grow float32) (t float32, hit, inside bool) {
	inv := unitQuat(b.Rot).Conjugate()
	o := inv.Rotate(p.Sub(b.Center))
	v := inv.Rotate(dir)
	tIn, tOut := float32(math.Inf(-1)), float32(math.Inf(1))
	for a := range 3 {
		h := b.Half[a] + grow
		if math.Abs(float64(v[a])) < 1e-9 {
			if o[a] < -h || o[a] > h {
				return 0, false, false // parallel to the slab and outside it
			}
			continue
		}
		t0, t1 := (-h-o[a])/v[a], (h-o[a])/v[a]
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		tIn, tOut = max(tIn, t0), min(tOut, t1)
	}
	switch {
	case tIn > tOut || tOut < 0:
		return 0, false, false
	case tIn < 0:
		return 0, false, true
	}
	return tIn, true, false
}

// frameFree eases shift toward the centre of free, the part of a
// width×height framebuffer the panels leave free; the first call snaps.
func (c *camera) frameFree(free Rect, width, height int, dt float64, snap bool) {
	goal := freeCentre(free, width, height)
	if snap {
		c.shift = goal
		return
	}
	dt = math.Max(0, math.Min(dt, camMaxDt))
	k := float32(1 - math.Exp(-camEaseRate*dt))
	c.shift = c.shift.Add(goal.Sub(c.shift).Mul(k))
}

// view returns the view matrix, which puts the target at the screen centre
// (proj moves it to shift).
func (c *camera) view() mgl32.Mat4 {
	return mgl32.LookAtV(c.eye(), c.target, mgl32.Vec3{0, 1, 0})
}

// proj returns the perspective projection for a viewport of the given
// size, moved so that the target is drawn at shift.
func (c *camera) proj(width, height int) mgl32.Mat4 {
	aspect := float32(1)
	if width > 0 && height > 0 {
		aspect = float32(width) / float32(height)
	}
	return mgl32.Translate3D(c.shift[0], c.shift[1], 0).Mul4(mgl32.Perspective(camFovY, aspect, camNear, camFar))
}

func finite3(v mgl32.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
