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

// arenaBoxes is a layout like the arena scene's: an inner wall, a tilted
// ramp, a step and a fence around a 32 m square.
func arenaBoxes() []Box {
	id := mgl32.QuatIdent()
	b := func(cx, cy, cz, hx, hy, hz float32, rot mgl32.Quat) Box {
		return Box{Center: mgl32.Vec3{cx, cy, cz}, Half: mgl32.Vec3{hx, hy, hz}, Rot: rot, Blocks: true}
	}
	return []Box{
		b(0, 1, -8, 5, 1, 0.25, id),
		b(-7, 0.45, 0, 2, 0.2, 3, mgl32.QuatRotate(0.2, mgl32.Vec3{1, 0, 0})),
		b(7, 0.25, 0, 1.5, 0.25, 1.5, id),
		b(0, 1.5, -16.5, 16, 1.5, 0.5, id),
		b(0, 1.5, 16.5, 16, 1.5, 0.5, id),
		b(-16.5, 1.5, 0, 0.5, 1.5, 16, id),
		b(16.5, 1.5, 0, 0.5, 1.5, 16, id),
		// Something that does not block: a ghost or a small cube.
		{Center: mgl32.Vec3{0, 1, 3}, Half: mgl32.Vec3{3, 3, 3}},
	}
}

// sightBlocked reports whether the segment from a to b passes within
// grow of a blocking box (grow 0: through it).
func sightBlocked(a, b mgl32.Vec3, boxes []Box, grow float32) bool {
	d := b.Sub(a)
	l := d.Len()
	for i := range boxes {
		if !boxes[i].Blocks {
			continue
		}
		if t, hit, _ := rayBox(a, d.Mul(1/l), &boxes[i], grow); hit && t < l-1e-3 {
			return true
		}
	}
	return false
}

func TestCameraKeepsOutOfWallsAndSeesTheTarget(t *testing.T) {
	boxes := arenaBoxes()
	// The cube just beyond the inner wall, the camera behind the wall.
	c := newCamera()
	c.follow(mgl32.Vec3{0, 0.5, -9.5}, 0)
	c.yaw = 0 // looking along -Z: the eye is at +Z, behind the wall
	if !sightBlocked(c.target, c.eye(), boxes, 0) {
		t.Fatal("the test needs the default eye behind the wall")
	}
	c.avoid(boxes, c.target, 1.0/60)
	if sightBlocked(c.target, c.eye(), boxes, 0) {
		t.Errorf("eye %v: the wall still hides the target %v", c.eye(), c.target)
	}
	// Anywhere in the arena, from any angle and distance, in every frame:
	// the eye is outside every obstacle and sees the target.
	rng := uint64(1)
	rnd := func() float32 {
		rng = rng*6364136223846793005 + 1442695040888963407
		return float32(rng>>40) / (1 << 24)
	}
	c = newCamera()
	frames := 0
	for trial := 0; trial < 400; trial++ {
		target := mgl32.Vec3{rnd()*30 - 15, 0.5, rnd()*30 - 15}
		// A cube of 1 m: its centre is at least 0.5 m from every obstacle.
		free := true
		for i := range boxes {
			if boxes[i].Blocks && insideBox(target, &boxes[i], 0.5) {
				free = false
			}
		}
		if !free {
			continue
		}
		c.placed = false // snap: a target gliding through a wall is another test's
		c.yaw, c.pitch = rnd()*6.3, camMinPitch+rnd()*(camMaxPitch-camMinPitch)
		c.zoom(0.5 + rnd()*6)
		for range 5 {
			c.follow(target, 1.0/60)
			c.avoid(boxes, c.target, 1.0/60)
			frames++
			eye := c.eye()
			for i := range boxes {
				if !boxes[i].Blocks {
					continue
				}
				if insideBox(eye, &boxes[i], camClearance*0.99) {
					t.Fatalf("eye %v is within the clearance of box %d (target %v, yaw %v pitch %v)", eye, i, c.target, c.yaw, c.pitch)
				}
			}
			if sightBlocked(c.target, eye, boxes, 0) {
				t.Fatalf("eye %v does not see the target %v past the obstacles", eye, c.target)
			}
			if eye.Y() < 0 {
				t.Fatalf("eye %v below the ground", eye)
			}
		}
	}
	// A target that glides within the clearance of a wall (the smoothed
	// point cutting a corner): the wall still may not hide it.
	c = newCamera()
	wall := []Box{{Center: mgl32.Vec3{0, 1, -2}, Half: mgl32.Vec3{5, 1, 0.25}, Blocks: true}}
	c.follow(mgl32.Vec3{0, 0.5, -1.6}, 0) // 0.15 m in front of the wall
	c.yaw, c.pitch = math.Pi, camMinPitch // the eye behind the wall
	c.avoid(wall, c.target, 1.0/60)
	if sightBlocked(c.target, c.eye(), wall, 0) {
		t.Errorf("target by the wall: eye %v behind it", c.eye())
	}
	if frames < 500 {
		t.Errorf("only %d frames checked", frames)
	}
}

// insideBox reports whether p is within box b grown by grow.
func insideBox(p mgl32.Vec3, b *Box, grow float32) bool {
	o := unitQuat(b.Rot).Conjugate().Rotate(p.Sub(b.Center))
	return abs32(o[0]) < b.Half[0]+grow && abs32(o[1]) < b.Half[1]+grow && abs32(o[2]) < b.Half[2]+grow
}

func TestCameraMovesBackOutSmoothlyAndResets(t *testing.T) {
	wall := []Box{{Center: mgl32.Vec3{0, 5, 5}, Half: mgl32.Vec3{20, 5, 0.5}, Blocks: true}}
	c := newCamera()
	c.follow(mgl32.Vec3{0, 0.5, 0}, 0)
	c.avoid(wall, c.target, 1.0/60)
	in := c.eye().Sub(c.target).Len()
	if in > 5 {
		t.Fatalf("a 10 m high wall 4.5 m behind: eye %v m away, want in front of the wall", in)
	}
	// The wall goes: the camera eases back out, not in one jump.
	c.avoid(nil, c.target, 1.0/60)
	out := c.eye().Sub(c.target).Len()
	if !(out > in && out < camDist-1) {
		t.Errorf("a frame after the wall went: %v m, want between %v and %v", out, in, camDist)
	}
	for range 300 {
		c.avoid(nil, c.target, 1.0/60)
	}
	if d := c.eye().Sub(c.target).Len(); math.Abs(float64(d-camDist)) > 1e-2 {
		t.Errorf("after 5 s: %v m, want back at %v", d, camDist)
	}
	// Reset undoes orbit and zoom.
	c.orbit(1, 0.5)
	c.zoom(3)
	c.reset()
	c.avoid(nil, c.target, 1.0/60)
	if c.yaw != camYaw || c.pitch != camPitch || c.dist != camDist {
		t.Errorf("after reset: yaw %v pitch %v dist %v", c.yaw, c.pitch, c.dist)
	}
	if d := c.eye().Sub(c.target).Len(); math.Abs(float64(d-camDist)) > 1e-3 {
		t.Errorf("after reset the eye is %v m away, want %v", d, camDist)
	}
}

// TestCameraSeesTheCubeItsTargetTrails: the cube has gone behind a wall
// while the smoothed target still trails in front of it; from the view the
// target alone would allow, the wall hides the cube. The camera looks from
// higher up until it sees the cube itself.
func TestCameraSeesTheCubeItsTargetTrails(t *testing.T) {
	wall := []Box{{Center: mgl32.Vec3{0, 1, -8}, Half: mgl32.Vec3{5, 1, 0.25}, Blocks: true}}
	cube := mgl32.Vec3{0, 0.5, -9.5}
	c := newCamera()
	c.follow(mgl32.Vec3{0, 0.5, -6}, 0) // the smoothed target, 3.5 m behind the cube
	if hidden(c.eye(), c.target, wall) || !hidden(c.eye(), cube, wall) {
		t.Fatal("the test needs the eye to see the target and not the cube")
	}
	c.avoid(wall, cube, 1.0/60)
	if hidden(c.eye(), cube, wall) {
		t.Errorf("eye %v: the wall hides the cube %v", c.eye(), cube)
	}
	if hidden(c.eye(), c.target, wall) {
		t.Errorf("eye %v: the wall hides the target %v", c.eye(), c.target)
	}
	for range 120 { // the target catches up; the cube stays seen
		c.follow(cube, 1.0/60)
		c.avoid(wall, cube, 1.0/60)
		if hidden(c.eye(), cube, wall) {
			t.Fatalf("eye %v, target %v: the wall hides the cube", c.eye(), c.target)
		}
	}
}

// TestCameraSeesTheCubeAroundTheArena: a cube driven at 6 m/s round the
// arena's walls, step and ramp (circles of random centres and radii),
// followed frame by frame at 60 fps from random angles: in every frame the
// eye sees the cube's centre past every wall and static box, not only the
// smoothed point that trails it.
func TestCameraSeesTheCubeAroundTheArena(t *testing.T) {
	boxes := arenaBoxes()
	rng := uint64(7)
	rnd := func() float32 {
		rng = rng*6364136223846793005 + 1442695040888963407
		return float32(rng>>40) / (1 << 24)
	}
	frames, hiddenFrames := 0, 0
	for trial := 0; trial < 60; trial++ {
		cx, cz, r := rnd()*20-10, rnd()*20-10, 2+rnd()*8
		c := newCamera()
		c.yaw, c.pitch = rnd()*6.3, camPitch
		for f := 0; f < 240; f++ {
			a := float64(f) / 60 * 6 / float64(r) // 6 m/s round the circle
			cube := mgl32.Vec3{cx + r*float32(math.Cos(a)), 0.5, cz + r*float32(math.Sin(a))}
			inside := false
			for i := range boxes {
				if boxes[i].Blocks && insideBox(cube, &boxes[i], 0.5) {
					inside = true
				}
			}
			if inside || abs32(cube[0]) > 15.5 || abs32(cube[2]) > 15.5 {
				c.placed = false // the cube cannot be there: start again where it can
				continue
			}
			c.follow(cube, 1.0/60)
			c.avoid(boxes, cube, 1.0/60)
			frames++
			if hidden(c.eye(), cube, boxes) {
				hiddenFrames++
			}
		}
	}
	t.Logf("%d frames, the cube hidden in %d", frames, hiddenFrames)
	if frames < 5000 {
		t.Fatalf("only %d frames", frames)
	}
	if hiddenFrames > 0 {
		t.Errorf("the cube was hidden by a wall or a static box in %d of %d frames", hiddenFrames, frames)
	}
}
