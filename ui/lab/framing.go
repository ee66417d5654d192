package lab

import (
	"github.com/go-gl/mathgl/mgl32"
)

// Framing: the window's camera frames a scene's structure on start, on a
// new scene and on Home. A structure is a scene with a moving body whose
// top stands higher than structureHeight (the stack, the pyramid, the drop
// scene's block); scenes of bodies on the ground (arena, cubes) keep the
// default view, close to the player's cube.
const (
	structureHeight = 2.0  // metres
	frameReach      = 25.0 // metres: bodies farther from the player's cube are left out of the frame
)

// framePoints returns the corners of the bounding cubes of the moving
// bodies to keep in view, or nil when the scene has no structure.
func (l *Lab) FramePoints() []mgl32.Vec3 {
	c := l.Client()
	w := c.World()
	player := w.Body(c.Body()).Pos
	tall := false
	var pts []mgl32.Vec3
	for i := 0; i < w.NumBodies(); i++ {
		if w.Static(i) || !w.Enabled(i) || i == c.Body() {
			continue
		}
		b := w.Body(i)
		h := w.Half(i)
		r := max(h.X, h.Y, h.Z)
		if b.Pos.Y+r > structureHeight {
			tall = true
		}
		if dx, dz := b.Pos.X-player.X, b.Pos.Z-player.Z; dx*dx+dz*dz > frameReach*frameReach {
			continue
		}
		lo := mgl32.Vec3{float32(b.Pos.X - r), float32(b.Pos.Y - r), float32(b.Pos.Z - r)}
		hi := mgl32.Vec3{float32(b.Pos.X + r), float32(b.Pos.Y + r), float32(b.Pos.Z + r)}
		pts = append(pts, lo, hi, mgl32.Vec3{lo[0], hi[1], hi[2]}, mgl32.Vec3{hi[0], hi[1], lo[2]})
	}
	if !tall {
		return nil
	}
	return pts
}
