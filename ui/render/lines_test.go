package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// A frame's segments come first, two vertices each with their colour and
// no point size, then its points, one vertex each with its width.
func TestLinesBuildSegmentsThenPoints(t *testing.T) {
	var b lineBuild
	vp := mgl32.Scale3D(0.1, 0.1, 0.1) // everything below in view
	red, blue := mgl32.Vec4{1, 0, 0, 1}, mgl32.Vec4{0, 0, 1, 1}
	p := mgl32.Vec3{1, 2, 3}
	b.build([]Line{
		{A: p, B: p, Color: blue, Width: 0.05},
		{A: mgl32.Vec3{}, B: mgl32.Vec3{0, 1, 0}, Color: red, Width: 0.02},
	}, nil, &vp, mgl32.Vec3{})
	if b.nLines != 2 || len(b.verts) != 3*lineFloats {
		t.Fatalf("%d segment vertices, %d floats: want 2 and %d", b.nLines, len(b.verts), 3*lineFloats)
	}
	want := []float32{0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 2, 3, 0, 0, 1, 0.05}
	for k := range want {
		if b.verts[k] != want[k] {
			t.Fatalf("vertices %v, want %v", b.verts, want)
		}
	}
	b.build(nil, nil, &vp, mgl32.Vec3{})
	if b.nLines != 0 || len(b.verts) != 0 {
		t.Fatalf("an empty frame left %d vertices", len(b.verts))
	}
}

// A segment wholly outside the view and a point whose centre is outside
// it are left out; a segment that crosses the view, or has one end in it,
// is kept whole, and so is a point in view. Through a camera's
// perspective, what is behind it is left out too.
func TestLinesBuildLeavesOutWhatIsOutOfView(t *testing.T) {
	var b lineBuild
	id := mgl32.Ident4() // the view volume is the cube from -1 to 1
	c := mgl32.Vec4{1, 1, 1, 1}
	b.build([]Line{
		{A: mgl32.Vec3{-2, 0, 0}, B: mgl32.Vec3{-3, 0.5, 0}, Color: c},     // left of the view
		{A: mgl32.Vec3{-2, 0, 0}, B: mgl32.Vec3{2, 0, 0}, Color: c},        // across it: kept
		{A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 5, 0}, Color: c},         // one end in it: kept
		{A: mgl32.Vec3{-2, 2, 0}, B: mgl32.Vec3{2, 2, 0}, Color: c},        // above it
		{A: mgl32.Vec3{0, 0, 2}, B: mgl32.Vec3{0, 0, 2}, Color: c},         // a point beyond the far plane
		{A: mgl32.Vec3{0.5, 0.5, 0}, B: mgl32.Vec3{0.5, 0.5, 0}, Color: c}, // a point in view: kept
		{A: mgl32.Vec3{-2, 2, 0}, B: mgl32.Vec3{2, -2, 0}, Color: c},       // a diagonal through it: kept
	}, nil, &id, mgl32.Vec3{})
	if b.nLines != 6 || len(b.verts) != 7*lineFloats || b.culled != 3 {
		t.Fatalf("%d segment vertices, %d vertices in all, %d left out: want 6, 7 and 3", b.nLines, len(b.verts)/lineFloats, b.culled)
	}
	if b.verts[0] != -2 || b.verts[7] != 2 || b.verts[22] != 5 || b.verts[28] != -2 || b.verts[29] != 2 {
		t.Fatalf("kept the wrong segments: %v", b.verts)
	}

	proj := mgl32.Perspective(1, 16.0/9, 0.1, 100)
	vp := proj.Mul4(mgl32.LookAtV(mgl32.Vec3{0, 0, 10}, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}))
	b.build([]Line{
		{A: mgl32.Vec3{0, 0, 20}, B: mgl32.Vec3{0, 1, 20}, Color: c}, // behind the camera
		{A: mgl32.Vec3{0, 0, 20}, B: mgl32.Vec3{0, 0, 0}, Color: c},  // from behind it to the target: kept
		{A: mgl32.Vec3{0, 0, 0}, B: mgl32.Vec3{0, 0, 0}, Color: c},   // the target: kept
	}, nil, &vp, mgl32.Vec3{})
	if b.nLines != 2 || len(b.verts) != 3*lineFloats || b.culled != 1 {
		t.Fatalf("through a perspective: %d segment vertices, %d in all, %d left out: want 2, 3 and 1", b.nLines, len(b.verts)/lineFloats, b.culled)
	}
}

// BenchmarkLineBuild measures turning the debug drawing's lines of a
// frame into vertices: 21,000 lines as the cubes scene's layers draw them
// in a pull (4,700 points, 16,500 segments), half of them out of view.
func BenchmarkLineBuild(b *testing.B) {
	lines := make([]Line, 0, 21000)
	c := mgl32.Vec4{1, 1, 1, 1}
	for k := range 21000 {
		p := mgl32.Vec3{float32(k%100)*0.2 - 10, 0.2, float32(k/100)*0.2 - 21}
		q := p
		if k%9 >= 2 {
			q = p.Add(mgl32.Vec3{0, 0.1, 0.1})
		}
		lines = append(lines, Line{A: p, B: q, Color: c, Width: 0.08})
	}
	proj := mgl32.Perspective(1, 16.0/9, 0.1, 100)
	vp := proj.Mul4(mgl32.LookAtV(mgl32.Vec3{0, 5, 10}, mgl32.Vec3{}, mgl32.Vec3{0, 1, 0}))
	var lb lineBuild
	lb.build(lines, nil, &vp, mgl32.Vec3{})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		lb.build(lines, nil, &vp, mgl32.Vec3{})
	}
	b.ReportMetric(float64(lb.culled), "culled")
}

// With the viewport's size known, a segment whose ends are less than a
// pixel apart on the screen, across and up, is left out; one a pixel long
// either way is kept, and so is a point.
func TestLinesBuildLeavesOutSegmentsShorterThanAPixel(t *testing.T) {
	b := lineBuild{halfW: 100, halfH: 50} // a 200x100 viewport on the cube from -1 to 1
	id := mgl32.Ident4()
	c := mgl32.Vec4{1, 1, 1, 1}
	p := mgl32.Vec3{0.1, 0.1, 0}
	b.build([]Line{
		{A: p, B: p.Add(mgl32.Vec3{0.009, 0.019, 0.5}), Color: c}, // 0.9 px across, 0.95 up: left out
		{A: p, B: p.Add(mgl32.Vec3{0.011, 0, 0}), Color: c},       // 1.1 px across: kept
		{A: p, B: p.Add(mgl32.Vec3{0, 0.021, 0}), Color: c},       // 1.05 px up: kept
		{A: p, B: p, Color: c, Width: 0.01},                       // a point: kept
	}, nil, &id, mgl32.Vec3{})
	if b.nLines != 4 || len(b.verts) != 5*lineFloats || b.short != 1 || b.culled != 0 {
		t.Fatalf("%d segment vertices, %d in all, %d too short, %d out of view: want 4, 5, 1 and 0", b.nLines, len(b.verts)/lineFloats, b.short, b.culled)
	}
	if b.verts[7] != 0.111 || b.verts[22] != 0.121 {
		t.Fatalf("kept the wrong segments: %v", b.verts)
	}
}
