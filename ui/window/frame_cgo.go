//go:build cgo

package window

import (
	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// v32, q32, pv and pq convert to the renderer's float32 types.
func v32(v mgl64.Vec3) mgl32.Vec3 { return mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }
func q32(q mgl64.Quat) mgl32.Quat {
	return mgl32.Quat{W: float32(q.W), V: v32(q.V)}
}
func pv(v physics.Vec3) mgl32.Vec3 { return mgl32.Vec3{float32(v.X), float32(v.Y), float32(v.Z)} }
func pq(q physics.Quat) mgl32.Quat {
	return mgl32.Quat{W: float32(q.W), V: mgl32.Vec3{float32(q.X), float32(q.Y), float32(q.Z)}}
}

// Colours of the boxes.
var (
	// ColorPlayer is the player's cube: a saturated red, which the ghosts
	// drawn over it (faint faces, opaque outlines) leave red, neither brown
	// nor purple.
	ColorPlayer = mgl32.Vec4{0.95, 0.1, 0.08, 1}
	// ColorServer is the server's cube, a ghost.
	ColorServer    = mgl32.Vec4{1, 0.85, 0.1, ghostAlpha}
	colorSnapshot  = mgl32.Vec4{0.2, 0.45, 1, ghostAlpha}
	colorPredicted = mgl32.Vec4{0.9, 0.9, 0.9, 1}
	// colorStatic is the walls' and the static boxes': a slate darker than
	// the ground, so that the bodies, lighter than both, stand out.
	colorStatic  = mgl32.Vec4{0.36, 0.38, 0.42, 1}
	colorBody    = mgl32.Vec4{0.86, 0.84, 0.80, 1} // other dynamic bodies, moving
	colorResting = mgl32.Vec4{0.76, 0.74, 0.70, 1} // other dynamic bodies, at rest
)

// ghostAlpha is the opacity of the ghosts' faces: low, so that the
// player's cube under them keeps its colour; their outlines are opaque.
const ghostAlpha = 0.12

// bodyShades alternate the brightness of the neutral bodies by index, so
// that boxes side by side or stacked (the stack, the pyramid) show where
// one ends and the next begins.
var bodyShades = [2]float32{1, 0.9}

// shade returns colour c at the brightness of body i.
func shade(c mgl32.Vec4, i int) mgl32.Vec4 {
	k := bodyShades[i%len(bodyShades)]
	return mgl32.Vec4{c[0] * k, c[1] * k, c[2] * k, c[3]}
}

// Below these speeds a body counts as at rest and is drawn dimmer. The
// physics engine will say which bodies sleep; until then the velocities tell.
const (
	restSpeed2    = 0.02 * 0.02 // (m/s)²
	restAngSpeed2 = 0.05 * 0.05 // (rad/s)²
)

// atRest reports whether a body is (nearly) still.
func atRest(b *physics.BodyState) bool {
	return b.Vel.Dot(b.Vel) < restSpeed2 && b.AngVel.Dot(b.AngVel) < restAngSpeed2
}

// SlotColors are the colours of the other players' cubes, by player
// slot: none red (the shown client's cube), yellow (the server's) or blue
// (the last snapshot's), and none a grey of the statics or the neutral of
// the other bodies.
var SlotColors = [game.MaxPlayers]mgl32.Vec4{
	{0.20, 0.70, 0.30, 1}, // green
	{0.75, 0.30, 0.80, 1}, // magenta
	{0.10, 0.65, 0.70, 1}, // teal
	{0.95, 0.50, 0.10, 1}, // orange
	{0.45, 0.35, 0.90, 1}, // violet
	{0.60, 0.85, 0.15, 1}, // lime
	{1.00, 0.55, 0.70, 1}, // pink
	{0.50, 0.32, 0.18, 1}, // brown
}

// BuildFrame fills the frame from the lab, reusing its slices: every body of the
// client's predicted world that is in it (statics grey, other players'
// cubes in their slot's colour, other dynamic bodies neutral, the player's
// cube red at its displayed pose), then the player's ghosts. A client that
// has not joined its remote server (or was refused) draws no player's
// cube: none joined.
func BuildFrame(l *lab.Lab, f *render.Frame) {
	c := l.Client()
	w, sc := c.World(), c.Scene()
	player := c.Body()
	f.Boxes = f.Boxes[:0]
	inPlay := l.InPlay()
	for i := 0; i < w.NumBodies(); i++ {
		if i == player || !w.Enabled(i) || (!inPlay && slotOf(sc, i) >= 0) {
			continue
		}
		box := bodyBox(w, sc, i)
		if l.Debug.Any() {
			tintBody(&l.Debug, w, i, &box)
		}
		f.Boxes = append(f.Boxes, box)
	}
	f.Lines, f.Outlines = f.Lines[:0], f.Outlines[:0]
	if l.Debug.Any() {
		debugDraw(&l.Debug, w, f)
	}
	half := pv(w.Half(player))
	pos, rot := l.Display()
	if w.Enabled(player) && inPlay {
		f.Boxes = append(f.Boxes, render.Box{Center: v32(pos), Half: half, Rot: q32(rot), Color: ColorPlayer, Style: render.Solid, Shadow: true})
		if l.Debug.Any() {
			f.Boxes = appendPlayerMarks(&l.Debug, player, f.Boxes, v32(pos), half, q32(rot))
		}
	}
	if b, ok := l.ServerCube(player); ok && l.Show.Server {
		f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: half, Rot: pq(b.Rot), Color: ColorServer, Style: render.Translucent})
	}
	if _, ok := c.Newest(); ok && l.Show.Snapshot {
		b := c.NewestBody()
		f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: half, Rot: pq(b.Rot), Color: colorSnapshot, Style: render.Translucent})
	}
	if l.Show.Predicted {
		b := w.Body(player)
		f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: half, Rot: pq(b.Rot), Color: colorPredicted, Style: render.Wireframe})
	}
	f.Follow = v32(pos)
	f.Help, f.ShowHelp = lab.HelpLines(), l.ShowHelp
	f.Banner = l.Desync
	if l.Compact {
		f.Banner = lab.CompactBanner(l.Desync)
	}
	if lost := l.LostBanner(); lost != "" {
		f.Banner = lost
	}
	f.Now = l.Now().Seconds()
	if l.HideOverlay {
		f.HUD, f.Graph = nil, nil
		return
	}
	f.HUD = l.HUD()
	if f.Graph == nil {
		f.Graph = make([]render.Sample, 0, 64*lab.GraphSeconds)
	}
	f.Graph = f.Graph[:0]
	for _, s := range l.Samples {
		f.Graph = append(f.Graph, render.Sample{T: s.T, Error: s.Err, Correction: s.Mark == lab.MarkCorrection, Resync: s.Mark == lab.MarkResync, InFlight: s.InFlight, DownKbps: s.DownKbps})
	}
}

// bodyBox returns how body i of world w, not the shown player's cube, is
// drawn: statics grey and blocking the camera, other players' cubes in
// their slot's colour, other dynamic bodies neutral, dimmer at rest.
func bodyBox(w *physics.World, sc *game.Scene, i int) render.Box {
	b := w.Body(i)
	box := render.Box{Center: pv(b.Pos), Half: pv(w.Half(i)), Rot: pq(b.Rot), Style: render.Solid}
	switch {
	case w.Static(i):
		box.Color, box.Blocks = colorStatic, true
	case slotOf(sc, i) >= 0:
		box.Color, box.Shadow, box.Fades = SlotColors[slotOf(sc, i)], true, true
	case atRest(&b):
		box.Color, box.Shadow, box.Fades = shade(colorResting, i), true, true
	default:
		box.Color, box.Shadow, box.Fades = shade(colorBody, i), true, true
	}
	return box
}

// slotOf returns the player slot whose cube is body i, or -1.
func slotOf(sc *game.Scene, i int) int {
	for p, b := range sc.Players {
		if b == i {
			return p
		}
	}
	return -1
}
