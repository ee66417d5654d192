package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// An outline draws the edges of the faces that face the eye: nine seen
// from off every face's plane (none of them at the corner away from the
// eye), seven from level with one pair of faces, four from straight above
// and all twelve from inside, indexing its eight corners; a box wholly out
// of view draws none.
func TestOutlineDrawsTheEdgesThatFaceTheEye(t *testing.T) {
	vp := mgl32.Scale3D(0.01, 0.01, 0.01) // everything below in view
	box := []Outline{{Lo: mgl32.Vec3{0, 0, 0}, Hi: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{1, 0, 0, 1}}}
	for _, c := range []struct {
		eye  mgl32.Vec3
		want int
	}{
		{mgl32.Vec3{5, 5, 5}, 9},
		{mgl32.Vec3{-5, 5, -5}, 9},
		{mgl32.Vec3{0.5, 5, 5}, 7},
		{mgl32.Vec3{0.5, 5, 0.5}, 4},
		{mgl32.Vec3{0.5, 0.5, 0.5}, 12},
	} {
		var b lineBuild
		b.build(nil, box, &vp, c.eye)
		if got := len(b.index) / 2; got != c.want || len(b.verts) != 8*lineFloats || b.nLines != 0 {
			t.Fatalf("eye at %v: %d segments, %d vertices, want %d and 8 corners", c.eye, got, len(b.verts)/lineFloats, c.want)
		}
		if c.eye[1] == 5 && c.eye[0] != 0.5 {
			away := mgl32.Vec3{0, 0, 0}
			if c.eye[0] < 0 {
				away = mgl32.Vec3{1, 0, 1}
			}
			for _, v := range b.index {
				p := mgl32.Vec3{b.verts[v*lineFloats], b.verts[v*lineFloats+1], b.verts[v*lineFloats+2]}
				if p == away {
					t.Fatalf("eye at %v: an edge from the corner away from it, %v", c.eye, away)
				}
			}
		}
	}
	var b lineBuild
	far := []Outline{{Lo: mgl32.Vec3{200, 0, 0}, Hi: mgl32.Vec3{201, 1, 1}}}
	b.build(nil, far, &vp, mgl32.Vec3{})
	if len(b.index) != 0 || len(b.verts) != 0 || b.culled != 1 {
		t.Fatalf("a box out of view: %d edges, %d vertices, %d left out: want 0, 0 and 1", len(b.index)/2, len(b.verts)/lineFloats, b.culled)
	}
}

// The outlines' corners follow the lines' segments and points, and their
// edges index them there.
func TestOutlinesFollowTheLinesAndPoints(t *testing.T) {
	vp := mgl32.Scale3D(0.01, 0.01, 0.01)
	c := mgl32.Vec4{1, 1, 1, 1}
	var b lineBuild
	b.build([]Line{
		{A: mgl32.Vec3{5, 5, 5}, B: mgl32.Vec3{5, 5, 5}, Color: c, Width: 0.1},
		{A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 3, 0}, Color: c},
	}, []Outline{{Lo: mgl32.Vec3{1, 1, 1}, Hi: mgl32.Vec3{2, 2, 2}, Color: c}}, &vp, mgl32.Vec3{9, 9, 9})
	if b.nLines != 2 || b.nPoints != 1 || len(b.verts) != 11*lineFloats || len(b.index) != 18 {
		t.Fatalf("%d segment vertices, %d points, %d vertices, %d indices: want 2, 1, 11 and 18", b.nLines, b.nPoints, len(b.verts)/lineFloats, len(b.index))
	}
	for _, v := range b.index {
		if v < 3 || v > 10 {
			t.Fatalf("an edge indexes vertex %d, not a corner (3 to 10): %v", v, b.index)
		}
		if x := b.verts[v*lineFloats]; x != 1 && x != 2 {
			t.Fatalf("vertex %d is at x %v, not a corner's", v, x)
		}
	}
}
