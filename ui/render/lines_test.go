package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A line's instance is a bar whose ends are the line's (plus half its
// width), in every direction, the one opposite the bar's axis too; a
// point is a cube of the line's width.
func TestLinesSpanTheirEnds(t *testing.T) {
	a := mgl32.Vec3{1, 2, 3}
	for _, d := range []mgl32.Vec3{{0, 0, 1}, {0, 0, -2}, {3, 0, 0}, {0, -1, 0}, {1, 1, 1}, {-0.3, 0.2, -5}} {
		l := Line{A: a, B: a.Add(d), Color: mgl32.Vec4{1, 0, 0, 1}, Width: 0.02}
		inst := appendLines(nil, []Line{l})
		if len(inst) != instFloats || inst[14] != modeFlat {
			t.Fatalf("%v: %d floats, mode %v", d, len(inst), inst[len(inst)-1])
		}
		c := mgl32.Vec3{inst[0], inst[1], inst[2]}
		h := mgl32.Vec3{inst[3], inst[4], inst[5]}
		q := mgl32.Quat{V: mgl32.Vec3{inst[6], inst[7], inst[8]}, W: inst[9]}
		tip := c.Add(q.Rotate(mgl32.Vec3{0, 0, h[2]}))
		want := l.B.Add(d.Normalize().Mul(0.01))
		if tip.Sub(want).Len() > 1e-4 || h[0] != 0.01 || h[1] != 0.01 {
			t.Errorf("%v: bar's tip at %v, want %v; half %v", d, tip, want, h)
		}
	}
	p := appendLines(nil, []Line{{A: a, B: a, Width: 0.1}})
	if (mgl32.Vec3{p[3], p[4], p[5]}) != (mgl32.Vec3{0.05, 0.05, 0.05}) || (mgl32.Vec3{p[0], p[1], p[2]}) != a {
		t.Errorf("a point: centre %v half %v", p[:3], p[3:6])
	}
}
