package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// An outline draws the edges of the faces that face the eye: nine seen
// from off every face's plane (none of them at the corner away from the
// eye), seven from level with one pair of faces, four from straight above
// and all twelve from inside; a box wholly out of view draws none.
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
		if got := b.nLines / 2; got != c.want || len(b.verts) != b.nLines*lineFloats {
			t.Fatalf("eye at %v: %d segments, want %d", c.eye, got, c.want)
		}
		if c.eye[1] == 5 && c.eye[0] != 0.5 {
			away := mgl32.Vec3{0, 0, 0}
			if c.eye[0] < 0 {
				away = mgl32.Vec3{1, 0, 1}
			}
			for v := 0; v < b.nLines; v++ {
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
	if b.nLines != 0 || b.culled != 1 {
		t.Fatalf("a box out of view: %d segment vertices, %d left out: want 0 and 1", b.nLines, b.culled)
	}
}
