package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A frame's segments come first, two vertices each with their colour and
// no point size, then its points, one vertex each with its width.
func TestLinesBuildSegmentsThenPoints(t *testing.T) {
	var b lineBuild
	red, blue := mgl32.Vec4{1, 0, 0, 1}, mgl32.Vec4{0, 0, 1, 1}
	p := mgl32.Vec3{1, 2, 3}
	b.build([]Line{
		{A: p, B: p, Color: blue, Width: 0.05},
		{A: mgl32.Vec3{}, B: mgl32.Vec3{0, 1, 0}, Color: red, Width: 0.02},
	})
	if b.nLines != 2 || len(b.verts) != 3*lineFloats {
		t.Fatalf("%d segment vertices, %d floats: want 2 and %d", b.nLines, len(b.verts), 3*lineFloats)
	}
	want := []float32{0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 2, 3, 0, 0, 1, 0.05}
	for k := range want {
		if b.verts[k] != want[k] {
			t.Fatalf("vertices %v, want %v", b.verts, want)
		}
	}
	b.build(nil)
	if b.nLines != 0 || len(b.verts) != 0 {
		t.Fatalf("an empty frame left %d vertices", len(b.verts))
	}
}
