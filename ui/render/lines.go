package render

import "github.com/go-gl/mathgl/mgl32"

// Line is a segment drawn over the scene in a flat colour, one pixel wide
// and depth tested; a Line whose ends coincide is a point, a square Width
// metres across (at least 2 and at most 16 pixels). The debug drawing
// (contacts, bounds, velocities, corrections) is made of them. A frame's
// lines and points go into one vertex buffer with its Outlines, drawn
// with three calls.
type Line struct {
	A, B  mgl32.Vec3
	Color mgl32.Vec4 // RGB; alpha is ignored
	Width float32    // a point's width, metres; a segment is one pixel wide
}

// lineFloats is the floats of one vertex of lines.vert: position 3,
// colour 3, point size 1.
const lineFloats = 7

// lineBuild turns a frame's lines into vertices: the segments' ends first,
// then the points, then the outlines' corners, whose edges index lists.
// Its slices are reused from frame to frame.
type lineBuild struct {
	verts   []float32
	points  []float32
	index   []uint32 // the outlines' edges, two vertices of verts each
	nLines  int      // vertices of segments, at the start of verts
	nPoints int      // vertices of points, after them
	culled  int      // lines left out of the last build: outside the view
	short   int      // segments left out of the last build: shorter than a pixel
	// halfW and halfH are half the viewport, pixels, which a segment
	// must span one of to be drawn; zero draws every segment in view.
	halfW, halfH float32
}

// build fills b from lines and outlines as seen through viewProj from eye,
// leaving out the segments wholly outside the view and the points whose
// centre is (as OpenGL would clip them): a software renderer pays for
// every primitive it is handed, and a camera close to the player's cube
// sees a fraction of a scene's bodies. It also leaves out the segments in
// front of the eye whose ends are less than a pixel apart on the screen,
// across and up: such a segment colours a pixel at most, and the contact
// layer's normals of distant resting bodies are mostly that short.
func (b *lineBuild) build(lines []Line, outlines []Outline, viewProj *mgl32.Mat4, eye mgl32.Vec3) {
	b.verts, b.points, b.index, b.culled, b.short = b.verts[:0], b.points[:0], b.index[:0], 0, 0
	m := viewProj
	for i := range lines {
		l := &lines[i]
		c := l.Color
		ax, ay, aw, oa := clip(m, l.A)
		if l.A == l.B {
			if oa != 0 {
				b.culled++
				continue
			}
			b.points = append(b.points, l.A[0], l.A[1], l.A[2], c[0], c[1], c[2], l.Width)
			continue
		}
		bx, by, bw, ob := clip(m, l.B)
		if oa&ob != 0 {
			b.culled++
			continue
		}
		if b.halfW > 0 && aw > 0 && bw > 0 && abs32(ax/aw-bx/bw)*b.halfW < 1 && abs32(ay/aw-by/bw)*b.halfH < 1 {
			b.short++
			continue
		}
		b.verts = append(b.verts,
			l.A[0], l.A[1], l.A[2], c[0], c[1], c[2], 0,
			l.B[0], l.B[1], l.B[2], c[0], c[1], c[2], 0)
	}
	b.nLines = len(b.verts) / lineFloats
	b.nPoints = len(b.points) / lineFloats
	b.verts = append(b.verts, b.points...)
	for i := range outlines {
		b.outline(&outlines[i], m, eye)
	}
}

// outcode returns the planes of the view volume that point p, seen
// through m, is outside of: a bit each for left, right, bottom, top, near
// and far, in clip space (-w to w). A segment whose ends share a bit is
// wholly outside.
func outcode(m *mgl32.Mat4, p mgl32.Vec3) uint8 {
	_, _, _, c := clip(m, p)
	return c
}

// clip returns point p seen through m in clip space, x, y and w, and its
// outcode.
func clip(m *mgl32.Mat4, p mgl32.Vec3) (x, y, w float32, c uint8) {
	// m is column-major: row r of the product is m[r], m[4+r], m[8+r], m[12+r].
	x = m[0]*p[0] + m[4]*p[1] + m[8]*p[2] + m[12]
	y = m[1]*p[0] + m[5]*p[1] + m[9]*p[2] + m[13]
	z := m[2]*p[0] + m[6]*p[1] + m[10]*p[2] + m[14]
	w = m[3]*p[0] + m[7]*p[1] + m[11]*p[2] + m[15]
	if x < -w {
		c |= 1
	}
	if x > w {
		c |= 2
	}
	if y < -w {
		c |= 4
	}
	if y > w {
		c |= 8
	}
	if z < -w {
		c |= 16
	}
	if z > w {
		c |= 32
	}
	return x, y, w, c
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
