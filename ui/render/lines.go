package render

import "github.com/go-gl/mathgl/mgl32"

// Line is a segment drawn over the scene in a flat colour: a thin square
// bar from A to B, Width metres thick, unlit; a Line whose ends coincide
// is a cube of that width, a point. The debug drawing (contacts, bounds,
// velocities, corrections) is made of them. They go into the same
// instanced draw as the boxes, one instance each.
type Line struct {
	A, B  mgl32.Vec3
	Color mgl32.Vec4 // RGB; alpha is ignored
	Width float32    // metres
}

// zAxis is the unit cube's axis a Line's length runs along.
var zAxis = mgl32.Vec3{0, 0, 1}

// appendLines appends lines as flat-coloured instances.
func appendLines(dst []float32, lines []Line) []float32 {
	for i := range lines {
		l := &lines[i]
		h := l.Width / 2
		c := mgl32.Vec4{l.Color[0], l.Color[1], l.Color[2], 1}
		d := l.B.Sub(l.A)
		n := d.Len()
		mid := l.A.Add(d.Mul(0.5))
		if n < 1e-6 {
			dst = appendInstance(dst, mid, mgl32.Vec3{h, h, h}, mgl32.QuatIdent(), c, modeFlat)
			continue
		}
		d = d.Mul(1 / n)
		var rot mgl32.Quat
		if d[2] < -0.9999 { // opposite to z: QuatBetweenVectors has no unique axis there
			rot = mgl32.Quat{W: 0, V: mgl32.Vec3{1, 0, 0}}
		} else {
			rot = mgl32.QuatBetweenVectors(zAxis, d)
		}
		dst = appendInstance(dst, mid, mgl32.Vec3{h, h, n/2 + h}, rot, c, modeFlat)
	}
	return dst
}
