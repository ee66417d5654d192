package physics

import (
	"math"
	"testing"
)

// twoBoxes builds a world with no gravity holding boxes a and b, both
// dynamic unless static says otherwise, and derives them.
func twoBoxes(t *testing.T, a, b BoxDef) *World {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []BoxDef{a, b} {
		if _, err := w.AddBox(d); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func cubeAt(p Vec3, rot Quat) BoxDef {
	d := DefaultBoxDef()
	d.Pos, d.Rot = p, rot
	return d
}

// boxBox1 runs boxBox and returns its single contact.
func boxBox1(A, B *box, spec float64) (Vec3, [4]cpt, int) {
	var m manifolds
	boxBox(A, B, spec, 0, &m)
	if m.m == 0 {
		return Vec3{}, m.pts[0], 0
	}
	if m.m > 1 {
		panic("two contacts")
	}
	return m.n[0], m.pts[0], m.k[0]
}

// eighth is tan(π/8): AxisTurn with it turns by 45°.
const eighth = 0.4142135623730951

func TestCrossedEdgesMakeAnEdgeContact(t *testing.T) {
	// A turned 45° about x has an edge along x on top at y = √2/2; B turned
	// 45° about z has an edge along z at its bottom, √2/2 below its centre.
	// With B's centre at y = 1.5 the edges cross 1.5 - √2 apart, straight
	// above the origin.
	w := twoBoxes(t, cubeAt(Vec3{}, AxisTurn(Vec3{1, 0, 0}, eighth)), cubeAt(Vec3{0, 1.5, 0}, AxisTurn(Vec3{0, 0, 1}, eighth)))
	A, B := w.boxOf(0), w.boxOf(1)
	n, out, k := boxBox1(&A, &B, 0.1)
	gap := 1.5 - math.Sqrt2
	if k != 1 || out[0].feature&featEdge == 0 {
		t.Fatalf("got %d points, feature %#x; want one edge-edge point", k, out[0].feature)
	}
	if !near(out[0].sep, gap, 1e-12) || !vecNear(out[0].p, Vec3{0, math.Sqrt2/2 + gap/2, 0}, 1e-12) {
		t.Fatalf("edge contact at %v, separation %v; want (0, %v, 0), %v", out[0].p, out[0].sep, math.Sqrt2/2+gap/2, gap)
	}
	if !vecNear(n, Vec3{0, -1, 0}, 1e-12) {
		t.Fatalf("normal %v, want (0, -1, 0) from B down to A", n)
	}
	// Beyond the speculative distance there is no contact at all.
	if _, _, k := boxBox1(&A, &B, 0.05); k != 0 {
		t.Fatalf("%d points at a gap of %v with spec 0.05", k, gap)
	}
}

func TestCrossedCubesDoNotSink(t *testing.T) {
	// The old engine let two crossed 1 m cubes sink 0.39 m before any
	// contact existed. Drop B onto A (standing on an edge on a static
	// box's face... here simply held by the ground-free world with A static).
	a := cubeAt(Vec3{}, AxisTurn(Vec3{1, 0, 0}, eighth))
	a.Static = true
	b := cubeAt(Vec3{0, 1.6, 0}, AxisTurn(Vec3{0, 0, 1}, eighth))
	b.Vel = Vec3{0, -3, 0}
	w := twoBoxes(t, a, b)
	deepest := 0.0
	for i := 0; i < 64; i++ {
		w.Step()
		deepest = max(deepest, MaxOverlap(w))
	}
	if deepest > 0.02 {
		t.Fatalf("crossed cubes overlapped by %v m", deepest)
	}
	if y := w.Body(1).Pos.Y; y < math.Sqrt2-0.02 {
		t.Fatalf("B's centre fell to %v, below the crossed edges' %v", y, math.Sqrt2)
	}
}

func TestThinSlabAcrossAFaceMakesContact(t *testing.T) {
	// A 0.1 m thick slab crossing a cube's face, with no vertex of either
	// inside the other: the old engine found no contact.
	slab := DefaultBoxDef()
	slab.Half, slab.Pos, slab.Static = Vec3{0.05, 2, 2}, Vec3{0.52, 5, 0}, true
	w := twoBoxes(t, cubeAt(Vec3{0, 5, 0}, Identity), slab)
	A, B := w.boxOf(0), w.boxOf(1)
	n, out, k := boxBox1(&A, &B, 0.02)
	if k != 4 {
		t.Fatalf("got %d points, want 4 (the cube's face against the slab)", k)
	}
	for _, p := range out[:k] {
		if !near(p.sep, -0.03, 1e-12) {
			t.Fatalf("separation %v, want -0.03", p.sep)
		}
	}
	if !vecNear(n, Vec3{-1, 0, 0}, 1e-12) {
		t.Fatalf("normal %v, want (-1, 0, 0)", n)
	}
	if got := MaxOverlap(w); !near(got, 0.03, 1e-12) {
		t.Fatalf("MaxOverlap %v, want 0.03", got)
	}
}

func TestFaceContactFeaturesNameTheReferenceFace(t *testing.T) {
	// B rests on A: A's +y face is the reference (face 2), B's vertices with
	// y bit 0 (0, 1, 4, 5) touch it.
	w := twoBoxes(t, cubeAt(Vec3{}, Identity), cubeAt(Vec3{0.1, 0.995, 0.05}, Identity))
	A, B := w.boxOf(0), w.boxOf(1)
	n, out, k := boxBox1(&A, &B, 0.02)
	if k != 4 || !vecNear(n, Vec3{0, -1, 0}, 0) {
		t.Fatalf("%d points, normal %v", k, n)
	}
	// The clipped corners: x in [-0.4, 0.5], z in [-0.45, 0.5]; B's
	// vertices 1 (+x, -y, -z) and 5 (+x, -y, +z) lie outside A's x range,
	// so they are clipped by plane 0 (+x).
	for _, p := range out[:k] {
		if f := p.feature; f&(featRefB|featEdge) != 0 || f>>featFaceBits != 2 {
			t.Fatalf("feature %#x: want A's +y face", f)
		}
		if !near(p.sep, -0.005, 1e-12) || !near(p.p.Y, 0.4975, 1e-12) {
			t.Fatalf("point %v separation %v", p.p, p.sep)
		}
	}
	// Sorted by feature.
	for q := 1; q < k; q++ {
		if out[q].feature <= out[q-1].feature {
			t.Fatalf("features out of order: %#x then %#x", out[q-1].feature, out[q].feature)
		}
	}
	// A small turn keeps the same features, so warm starting goes on.
	w2 := twoBoxes(t, cubeAt(Vec3{}, Identity), cubeAt(Vec3{0.1, 0.995, 0.05}, AxisTurn(Vec3{0, 1, 0}, 0.001)))
	A2, B2 := w2.boxOf(0), w2.boxOf(1)
	_, out2, k2 := boxBox1(&A2, &B2, 0.02)
	if k2 != k {
		t.Fatalf("turned: %d points", k2)
	}
	for q := 0; q < k; q++ {
		if out2[q].feature != out[q].feature {
			t.Fatalf("turned by 0.002 rad: feature %#x became %#x", out[q].feature, out2[q].feature)
		}
	}
}

func TestReferenceOnBWhenItsFaceSeparatesMore(t *testing.T) {
	// A small cube under a large one: B's -y face overlaps least... both
	// faces are parallel: A is preferred unless B's separation is clearly
	// larger. With A tilted, B's face axis wins.
	a := cubeAt(Vec3{}, AxisTurn(Vec3{0, 0, 1}, 0.2))
	b := DefaultBoxDef()
	b.Half, b.Pos = Vec3{3, 0.5, 3}, Vec3{0, 1.15, 0}
	w := twoBoxes(t, a, b)
	A, B := w.boxOf(0), w.boxOf(1)
	n, out, k := boxBox1(&A, &B, 0.02)
	if k == 0 || out[0].feature&featRefB == 0 || out[0].feature>>featFaceBits&7 != 3 {
		t.Fatalf("%d points, feature %#x: want B's -y face as reference", k, out[0].feature)
	}
	if !vecNear(n, Vec3{0, -1, 0}, 1e-12) {
		t.Fatalf("normal %v", n)
	}
	// The points are A's top vertices: at most the two highest.
	for _, p := range out[:k] {
		if p.sep > 0.02 {
			t.Fatalf("kept a point beyond spec: %v", p.sep)
		}
	}
}

func TestOctagonIsReducedToFourPoints(t *testing.T) {
	// B turned 45° about y on A: the faces overlap in an octagon, eight
	// points, reduced to four spanning it.
	w := twoBoxes(t, cubeAt(Vec3{}, Identity), cubeAt(Vec3{0, 0.99, 0}, AxisTurn(Vec3{0, 1, 0}, eighth)))
	A, B := w.boxOf(0), w.boxOf(1)
	_, out, k := boxBox1(&A, &B, 0.02)
	if k != 4 {
		t.Fatalf("%d points, want 4", k)
	}
	// The four span the octagon: their bounding square is nearly the face.
	lo, hi := out[0].p, out[0].p
	for _, p := range out[:k] {
		lo.X, lo.Z = min(lo.X, p.p.X), min(lo.Z, p.p.Z)
		hi.X, hi.Z = max(hi.X, p.p.X), max(hi.Z, p.p.Z)
	}
	if hi.X-lo.X < 0.8 || hi.Z-lo.Z < 0.8 {
		t.Fatalf("points span %v x %v, want most of the face", hi.X-lo.X, hi.Z-lo.Z)
	}
}

func TestValidFeature(t *testing.T) {
	for _, c := range []struct {
		b    int32
		f    uint32
		want bool
	}{
		{Ground, 7, true}, {Ground, 8, false},
		{1, 5<<featFaceBits | 71, true}, {1, 6 << featFaceBits, false}, {1, 72, false},
		{1, featRefB | 2<<featFaceBits | 3, true}, {1, 1 << 12, false},
		{1, featEdge | 11<<4 | 11, true}, {1, featEdge | 12, false}, {1, featEdge | featEnd | 3, true}, {1, featEdge | 1<<9, false},
		{1, featExt | featRefB | 1<<featFaceBits | 9, true}, {1, featExt | 72, false},
	} {
		if got := validFeature(c.b, c.f); got != c.want {
			t.Errorf("validFeature(%d, %#x) = %v", c.b, c.f, got)
		}
	}
}

func TestContactNormalFollowsTheFeature(t *testing.T) {
	w := mustPile()
	if err := testScenes[1].run(w, 40); err != nil {
		t.Fatal(err)
	}
	kinds := 0
	for _, c := range w.Contacts() {
		n := w.ContactNormal(&c)
		if !near(n.Len(), 1, 1e-12) {
			t.Fatalf("contact %+v: normal %v not unit", c, n)
		}
		if c.B == Ground {
			continue
		}
		// From B towards A: A's centre lies on n's side of B's.
		if d := w.Body(int(c.A)).Pos.Sub(w.Body(int(c.B)).Pos); d.Dot(n) <= 0 {
			t.Fatalf("contact %+v: normal %v points from A to B", c, n)
		}
		kinds |= 1 << min(2, int(c.Feature>>14))
	}
	if kinds == 0 {
		t.Fatal("no box-box contacts in the pile")
	}
}

func TestBoxesCornerToCornerMeetAtTheirEdges(t *testing.T) {
	// B is 3 cm away from A along x and along z: their faces do not
	// overlap seen along either axis, and the vertical edges nearest each
	// other are parallel. The contact is at those edges, two points (the
	// ends of their overlap), normal along the diagonal gap.
	w := twoBoxes(t, cubeAt(Vec3{}, Identity), cubeAt(Vec3{1.03, 0.2, 1.03}, Identity))
	A, B := w.boxOf(0), w.boxOf(1)
	n, out, k := boxBox1(&A, &B, 0.1)
	if k != 2 || out[0].feature&featEdge == 0 || out[1].feature != out[0].feature|featEnd {
		t.Fatalf("%d points, features %#x %#x; want two edge points", k, out[0].feature, out[1].feature)
	}
	s := math.Sqrt(0.5)
	if !vecNear(n, Vec3{-s, 0, -s}, 1e-12) || !near(out[0].sep, 0.03*math.Sqrt2, 1e-12) {
		t.Fatalf("normal %v, separation %v; want (-0.71, 0, -0.71), %v", n, out[0].sep, 0.03*math.Sqrt2)
	}
	if lo, hi := out[0].p.Y, out[1].p.Y; !near(min(lo, hi), -0.3, 1e-12) || !near(max(lo, hi), 0.5, 1e-12) {
		t.Fatalf("points at heights %v and %v, want the overlap of the edges, -0.3 to 0.5", lo, hi)
	}
	// Beyond the speculative distance, nothing.
	if _, _, k := boxBox1(&A, &B, 0.04); k != 0 {
		t.Fatalf("%d points with spec 0.04 at a gap of %v", k, 0.03*math.Sqrt2)
	}
	// The cache's normal for the feature: from B to A along the gap.
	c := ContactState{A: 0, B: 1, Feature: out[1].feature}
	if got := w.ContactNormal(&c); !vecNear(got, Vec3{-s, 0, -s}, 1e-12) {
		t.Fatalf("ContactNormal %v", got)
	}
	// Edges that cross at an angle: one point, at their closest points.
	w = twoBoxes(t, cubeAt(Vec3{}, Identity), cubeAt(Vec3{1.04, 1.03, 0.3}, AxisTurn(Vec3{0, 1, 0}, 0.2)))
	A, B = w.boxOf(0), w.boxOf(1)
	if _, _, k := boxBox1(&A, &B, 0.1); k == 0 {
		t.Fatal("no contact between boxes 3 cm apart past their faces")
	}
}

func TestClosestOnSegments(t *testing.T) {
	x := Vec3{1, 0, 0}
	a := segment{c: Vec3{}, u: x, h: 1}
	for _, c := range []struct {
		b      segment
		k      int
		pa, pb Vec3
	}{
		// Parallel, apart along the line: the nearest ends.
		{segment{c: Vec3{3, 1, 0}, u: x, h: 1}, 1, Vec3{1, 0, 0}, Vec3{2, 1, 0}},
		// Parallel, overlapping: both ends of the overlap.
		{segment{c: Vec3{1.5, 1, 0}, u: x.Neg(), h: 1}, 2, Vec3{0.5, 0, 0}, Vec3{0.5, 1, 0}},
		// Crossing at an angle, the closest points inside both.
		{segment{c: Vec3{0.2, 0, 1}, u: Vec3{0, 1, 0}, h: 1}, 1, Vec3{0.2, 0, 0}, Vec3{0.2, 0, 1}},
		// At an angle, past the end of a: clamped, then b's point again.
		{segment{c: Vec3{3, 0, 1}, u: Vec3{0, 1, 0}, h: 1}, 1, Vec3{1, 0, 0}, Vec3{3, 0, 1}},
	} {
		pa, pb, k := closestOnSegments(&a, &c.b)
		if k != c.k || !vecNear(pa[0], c.pa, 1e-12) || !vecNear(pb[0], c.pb, 1e-12) {
			t.Errorf("segment %+v: %d pairs, %v %v; want %d, %v %v", c.b, k, pa[0], pb[0], c.k, c.pa, c.pb)
		}
	}
}

func TestAlignedFacesKeepTheirCornersWithinRounding(t *testing.T) {
	// Two unit cubes of the same size, one on the other: the top cube's
	// bottom corners lie on the side planes of the lower cube's top face.
	// Set off by a few ulps, or by up to clipTol, the corners stay the
	// contact's points, with their vertex features (no crossing points,
	// which would lose their warm start: clipTol); set off by more, the
	// corners beyond the face are clipped.
	for _, c := range []struct {
		off     float64
		clipped bool
	}{{0, false}, {4e-16, false}, {1e-12, false}, {clipTol / 2, false}, {2 * clipTol, true}, {1e-3, true}} {
		w := twoBoxes(t, cubeAt(Vec3{}, Identity), cubeAt(Vec3{c.off, 0.995, -c.off}, Identity))
		A, B := w.boxOf(0), w.boxOf(1)
		_, out, k := boxBox1(&A, &B, 0.02)
		clipped := false
		for _, p := range out[:k] {
			clipped = clipped || p.feature&0x7f >= featClipped
		}
		if k != 4 || clipped != c.clipped {
			t.Errorf("set off by %g: %d points, clipped %v; want 4, clipped %v", c.off, k, clipped, c.clipped)
		}
	}
}
