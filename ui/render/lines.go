package render

import "github.com/go-gl/mathgl/mgl32"

// Line is a segment drawn over the scene in a flat colour, one pixel wide
// and depth tested; a Line whose ends coincide is a point, a square Width
// metres across (at least 2 and at most 16 pixels). The debug drawing
// (contacts, bounds, velocities, corrections) is made of them. A frame's
// lines and points go into one vertex buffer, drawn with two calls.
type Line struct {
	A, B  mgl32.Vec3
	Color mgl32.Vec4 // RGB; alpha is ignored
	Width float32    // a point's width, metres; a segment is one pixel wide
}

// lineFloats is the floats of one vertex of lines.vert: position 3,
// colour 3, point size 1.
const lineFloats = 7

// lineBuild turns a frame's lines into vertices: the segments' ends first,
// then the points. Its slices are reused from frame to frame.
type lineBuild struct {
	verts  []float32
	points []float32
	nLines int // vertices of segments, at the start of verts
}

// build fills b from lines.
func (b *lineBuild) build(lines []Line) {
	b.verts, b.points = b.verts[:0], b.points[:0]
	for i := range lines {
		l := &lines[i]
		c := l.Color
		if l.A == l.B {
			b.points = append(b.points, l.A[0], l.A[1], l.A[2], c[0], c[1], c[2], l.Width)
			continue
		}
		b.verts = append(b.verts,
			l.A[0], l.A[1], l.A[2], c[0], c[1], c[2], 0,
			l.B[0], l.B[1], l.B[2], c[0], c[1], c[2], 0)
	}
	b.nLines = len(b.verts) / lineFloats
	b.verts = append(b.verts, b.points...)
}
