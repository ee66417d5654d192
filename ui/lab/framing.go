package lab

import (
	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/physics"
)

// Framing: the window's camera frames its subject on start, on a new scene
// and on Home, in the part of the window the panels leave free. The
// subject is the player's cube, the other players' cubes near it, and the
// scene's structure when it has one: a moving body whose top stands higher
// than structureHeight (the stack, the pyramid, the drop scene's block).
// Scenes of bodies on the ground (arena, cubes) frame only the players'
// cubes, from the default angle.
const (
	structureHeight = 2.0  // metres
	frameReach      = 25.0 // metres: bodies farther from the player's cube are left out of the frame
)

// Subject returns the points the camera keeps in view (corners of the
// bounding cubes of the player's cube, of the other players' cubes in the
// world and of the structure's bodies, all within frameReach of the
// player's cube), and whether there is a structure to look at from the
// player's side. A client that has not joined a remote server frames its
// cube's place alone: the other slots' cubes are not players (InPlay).
func (l *Lab) Subject() (pts []mgl32.Vec3, structure bool) {
	c := l.Client()
	w, sc := c.World(), c.Scene()
	me := c.Body()
	player := w.Body(me).Pos
	near := func(i int) bool {
		p := w.Body(i).Pos
		dx, dz := p.X-player.X, p.Z-player.Z
		return dx*dx+dz*dz <= frameReach*frameReach
	}
	if w.Enabled(me) {
		pts = appendCorners(pts, w, me) // where it will be, even before it joins
	}
	isPlayer := make(map[int]bool, len(sc.Players))
	for _, i := range sc.Players {
		isPlayer[i] = true
		if i != me && l.InPlay() && w.Enabled(i) && near(i) {
			pts = appendCorners(pts, w, i)
		}
	}
	var bodies []mgl32.Vec3
	for i := 0; i < w.NumBodies(); i++ {
		if w.Static(i) || !w.Enabled(i) || isPlayer[i] {
			continue
		}
		b, h := w.Body(i), w.Half(i)
		if b.Pos.Y+max(h.X, h.Y, h.Z) > structureHeight {
			structure = true
		}
		if near(i) {
			bodies = appendCorners(bodies, w, i)
		}
	}
	if structure {
		pts = append(pts, bodies...)
	}
	return pts, structure
}

// appendCorners appends the eight corners of the bounding cube of body i.
func appendCorners(pts []mgl32.Vec3, w *physics.World, i int) []mgl32.Vec3 {
	b, h := w.Body(i), w.Half(i)
	r := max(h.X, h.Y, h.Z)
	for k := range 8 {
		sx, sy, sz := float64(2*(k&1)-1), float64((k&2)-1), float64((k&4)/2-1)
		pts = append(pts, mgl32.Vec3{float32(b.Pos.X + sx*r), float32(b.Pos.Y + sy*r), float32(b.Pos.Z + sz*r)})
	}
	return pts
}
