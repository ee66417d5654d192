//go:build cgo

package window

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// Colours and sizes of the debug drawing.
var (
	colorPoint    = mgl32.Vec4{1, 0.95, 0.2, 1}    // a contact point
	colorNormal   = mgl32.Vec4{0.2, 0.9, 1, 1}     // its normal impulse
	colorFriction = mgl32.Vec4{1, 0.3, 0.85, 1}    // its friction impulse
	colorBounds   = mgl32.Vec4{0.3, 0.9, 0.35, 1}  // an awake body's bounds
	colorBoundsZ  = mgl32.Vec4{0.3, 0.45, 0.35, 1} // a sleeping or static body's
	colorPair     = mgl32.Vec4{1, 0.75, 0.1, 1}    // a broad-phase pair
	colorSleeping = mgl32.Vec4{0.22, 0.24, 0.34, 1}
	colorHot      = mgl32.Vec4{1, 0.42, 0, 1}      // re-simulated by the last rewind
	colorDiffered = mgl32.Vec4{0.1, 0.85, 0.95, 1} // differed from the server's at the correction
	colorVelocity = mgl32.Vec4{0.15, 0.35, 1, 1}
	colorNoColour = mgl32.Vec4{0.45, 0.45, 0.45, 1} // a contact the last step did not solve
	colorOverflow = mgl32.Vec4{1, 1, 1, 1}
)

const (
	pointWidth = 0.08 // m
	lineWidth  = 0.02 // m
	// impulseLength scales the normal and friction impulses drawn: a line
	// is impulseLength times the square root of the mass, in kg, the
	// impulse would hold up against gravity over a substep, metres (a
	// square root, so that the cubes scene's 64 g cubes show beside its
	// 3.4 kg player's cube: 6 cm normals from each of four points for the
	// first, 46 cm for the second).
	impulseLength = 0.5
	maxImpulse    = 2.0  // m: the longest impulse line
	arrowSeconds  = 0.25 // a velocity arrow is where the body will be in this time
)

// palette returns the k-th of a set of distinct, saturated colours.
func palette(k int) mgl32.Vec4 {
	h := math.Mod(float64(k)*0.618033988749895, 1) * 6
	x := float32(1 - math.Abs(math.Mod(h, 2)-1))
	var c mgl32.Vec4
	switch int(h) {
	case 0:
		c = mgl32.Vec4{1, x, 0, 1}
	case 1:
		c = mgl32.Vec4{x, 1, 0, 1}
	case 2:
		c = mgl32.Vec4{0, 1, x, 1}
	case 3:
		c = mgl32.Vec4{0, x, 1, 1}
	case 4:
		c = mgl32.Vec4{x, 0, 1, 1}
	default:
		c = mgl32.Vec4{1, 0, x, 1}
	}
	for i := 0; i < 3; i++ {
		c[i] = 0.15 + 0.8*c[i]
	}
	return c
}

// mix returns a moved towards b by t in 0..1.
func mix(a, b mgl32.Vec4, t float32) mgl32.Vec4 {
	return mgl32.Vec4{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t, a[3]}
}

// tintBody sets the colour of body i's box for the layers that tint
// bodies: the rewind's heat over the island's colour.
func tintBody(d *lab.Debug, w *physics.World, i int, box *render.Box) {
	if w.Static(i) {
		return
	}
	if d.On[lab.LayerIslands] && i < len(d.Island) {
		switch {
		case w.Body(i).Asleep:
			box.Color = colorSleeping
		case d.Island[i] >= 0:
			box.Color = palette(int(d.Island[i]))
		}
	}
	if d.On[lab.LayerCorrection] {
		for _, cb := range d.Correction.Bodies {
			if int(cb.Body) == i {
				box.Color = mix(box.Color, colorDiffered, 0.8)
			}
		}
	}
	if i < len(d.Heat) && d.Heat[i] > 0 {
		box.Color = mix(box.Color, colorHot, 0.2+0.8*d.Heat[i])
	}
}

// appendPlayerMarks appends the outlines that mark the player's cube, whose
// red tintBody leaves alone, for the layers that tint bodies: the rewind's
// heat, and a difference at the last correction.
func appendPlayerMarks(d *lab.Debug, player int, boxes []render.Box, pos, half mgl32.Vec3, rot mgl32.Quat) []render.Box {
	grow := func(k float32) mgl32.Vec3 { return mgl32.Vec3{half[0] + k, half[1] + k, half[2] + k} }
	if player < len(d.Heat) && d.Heat[player] > 0 {
		boxes = append(boxes, render.Box{Center: pos, Half: grow(0.12), Rot: rot, Color: mix(colorSleeping, colorHot, 0.2+0.8*d.Heat[player]), Style: render.Wireframe})
	}
	if d.On[lab.LayerCorrection] {
		for _, cb := range d.Correction.Bodies {
			if int(cb.Body) == player {
				boxes = append(boxes, render.Box{Center: pos, Half: grow(0.2), Rot: rot, Color: colorDiffered, Style: render.Wireframe})
			}
		}
	}
	return boxes
}

// debugDraw sets f's lines and outlines to the debug drawing's points,
// segments, arrows and bounds of world w for the layers that are on.
func debugDraw(d *lab.Debug, w *physics.World, f *render.Frame) {
	f.Lines, f.Outlines = debugLines(d, w, f.Lines[:0]), f.Outlines[:0]
	if d.On[lab.LayerBounds] {
		for i := 0; i < w.NumBodies(); i++ {
			if !w.Enabled(i) || (w.Static(i) && w.Half(i).Y > 20) {
				continue
			}
			col := colorBounds
			if !w.Awake(i) {
				col = colorBoundsZ
			}
			lo, hi := w.Bounds(i)
			f.Outlines = append(f.Outlines, render.Outline{Lo: pv(lo), Hi: pv(hi), Color: col})
		}
	}
}

// debugLines appends the debug drawing's points, segments and arrows of
// world w for the layers that are on.
func debugLines(d *lab.Debug, w *physics.World, lines []render.Line) []render.Line {
	cfg := w.Config()
	kgPerImpulse := float64(cfg.Iterations) / (cfg.Dt * math.Max(1e-9, -cfg.Gravity.Y))
	if d.On[lab.LayerContacts] || d.On[lab.LayerColours] {
		for k := range d.Contacts {
			c := &d.Contacts[k]
			p := pv(c.Point)
			col := colorPoint
			if d.On[lab.LayerColours] {
				switch {
				case c.Colour == physics.ColourNone:
					col = colorNoColour
				case c.Colour == physics.ColourOverflow:
					col = colorOverflow
				default:
					col = palette(c.Colour)
				}
			}
			lines = append(lines, render.Line{A: p, B: p, Color: col, Width: pointWidth})
			if !d.On[lab.LayerContacts] {
				continue
			}
			if n := impulseLine(c.Pn * kgPerImpulse); n > 0.005 {
				lines = append(lines, render.Line{A: p, B: p.Add(pv(c.Normal.Scale(n))), Color: colorNormal, Width: lineWidth})
			}
			if f := c.Friction.Len(); f > 1e-9 {
				if n := impulseLine(f * kgPerImpulse); n > 0.005 {
					lines = append(lines, render.Line{A: p, B: p.Add(pv(c.Friction.Scale(n / f))), Color: colorFriction, Width: lineWidth})
				}
			}
		}
	}
	if d.On[lab.LayerBounds] {
		for _, p := range d.Pairs {
			lines = append(lines, render.Line{A: pv(w.Body(int(p[0])).Pos), B: pv(w.Body(int(p[1])).Pos), Color: colorPair, Width: 0.012})
		}
	}
	if d.On[lab.LayerCorrection] {
		for _, cb := range d.Correction.Bodies {
			a, b := pv(cb.Predicted), pv(cb.Server)
			lines = append(lines,
				render.Line{A: a, B: b, Color: colorDiffered, Width: lineWidth},
				render.Line{A: a, B: a, Color: mgl32.Vec4{1, 1, 1, 1}, Width: 2 * pointWidth},
				render.Line{A: b, B: b, Color: colorDiffered, Width: 2.5 * pointWidth})
		}
	}
	if d.On[lab.LayerVelocities] {
		for i := 0; i < w.NumBodies(); i++ {
			if !w.Awake(i) {
				continue
			}
			b := w.Body(i)
			if b.Vel.Dot(b.Vel) < 1e-6 {
				continue
			}
			a := pv(b.Pos)
			tip := a.Add(pv(b.Vel.Scale(arrowSeconds)))
			lines = append(lines,
				render.Line{A: a, B: tip, Color: colorVelocity, Width: lineWidth},
				render.Line{A: tip, B: tip, Color: colorVelocity, Width: 2.5 * lineWidth})
		}
	}
	return lines
}

// impulseLine returns the length of the line of an impulse that would hold
// kg up against gravity over a substep.
func impulseLine(kg float64) float64 {
	return math.Min(maxImpulse, impulseLength*math.Sqrt(math.Max(0, kg)))
}
