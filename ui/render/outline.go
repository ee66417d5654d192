package render

import "github.com/go-gl/mathgl/mgl32"

// Outline is an axis-aligned box drawn as its edges in a flat colour, one
// pixel wide and depth tested like a Line: the edges of the faces that
// face the eye, which are those a solid box would show and hold its whole
// silhouette (nine of the twelve seen from off every face's plane, seven
// or four when the eye is level with a pair of faces). The edges behind,
// which a body inside the box mostly hides, are left out, for a software
// renderer pays for every segment; with the eye inside the box, all
// twelve are drawn. Its eight corners are drawn once each, the edges
// indexing them, since the renderer also pays for every vertex. The debug
// drawing's bounds are Outlines.
type Outline struct {
	Lo, Hi mgl32.Vec3
	Color  mgl32.Vec4 // RGB; alpha is ignored
}

// outline appends the corners of o and the edges that face eye and are
// not wholly outside the view of m; a box wholly outside it counts as one
// culled.
func (b *lineBuild) outline(o *Outline, m *mgl32.Mat4, eye mgl32.Vec3) {
	var corner [8]mgl32.Vec3
	var code [8]uint8
	all := uint8(0xff)
	for k := range corner {
		for a := 0; a < 3; a++ {
			if k>>a&1 != 0 {
				corner[k][a] = o.Hi[a]
			} else {
				corner[k][a] = o.Lo[a]
			}
		}
		code[k] = outcode(m, corner[k])
		all &= code[k]
	}
	if all != 0 {
		b.culled++
		return
	}
	// front[a] has bit 0 when the face at Lo[a] faces the eye, bit 1 when
	// the face at Hi[a] does.
	var front [3]uint8
	anyFront := false
	for a := 0; a < 3; a++ {
		if eye[a] < o.Lo[a] {
			front[a] = 1
		}
		if eye[a] > o.Hi[a] {
			front[a] = 2
		}
		anyFront = anyFront || front[a] != 0
	}
	c := o.Color
	base := uint32(len(b.verts) / lineFloats)
	n := len(b.index)
	for k := 0; k < 8; k++ {
		for a := 0; a < 3; a++ {
			if k>>a&1 != 0 {
				continue
			}
			j := k | 1<<a
			// The edge from corner k along axis a borders the faces of the
			// two other axes on the sides that corner k is on.
			b1, b2 := (a+1)%3, (a+2)%3
			if anyFront && front[b1]&(1<<(k>>b1&1)) == 0 && front[b2]&(1<<(k>>b2&1)) == 0 {
				continue
			}
			if code[k]&code[j] != 0 {
				continue
			}
			b.index = append(b.index, base+uint32(k), base+uint32(j))
		}
	}
	if len(b.index) == n {
		return
	}
	for k := range corner {
		p := corner[k]
		b.verts = append(b.verts, p[0], p[1], p[2], c[0], c[1], c[2], 0)
	}
}
