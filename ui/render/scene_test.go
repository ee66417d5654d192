package render

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/ui/shaders"
)

func instanceAt(s *sceneBuild, i int) []float32 {
	return s.inst[i*instFloats : (i+1)*instFloats]
}

func TestSceneBuildGroundSolidWireframeTranslucent(t *testing.T) {
	boxes := []Box{
		{Center: mgl32.Vec3{0, 1, 0}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{1, 0, 0, 1}, Shadow: true},
		{Center: mgl32.Vec3{5, 1, 0}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{0, 0, 1, 0.4}, Style: Wireframe},
		{Center: mgl32.Vec3{0, 1, -10}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{1, 1, 0, 0.4}, Style: Translucent},
		{Center: mgl32.Vec3{0, 1, -20}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{0, 1, 1, 0.4}, Style: Translucent},
	}
	var s sceneBuild
	eye := mgl32.Vec3{0, 5, 10}
	s.build(boxes, mgl32.Vec3{3, 0, 4}, eye)

	// Ground, one solid, 12 wireframe edges, 12+12 translucent edges; then two faces.
	if want := 1 + 1 + 12 + 24; s.nOpaque != want {
		t.Fatalf("nOpaque = %d, want %d", s.nOpaque, want)
	}
	if n := len(s.inst) / instFloats; n != s.nOpaque+2 {
		t.Fatalf("%d instances, want %d", n, s.nOpaque+2)
	}
	// The ground is the last opaque instance: drawn after the boxes, the
	// depth test skips shading it where they cover it.
	g := instanceAt(&s, s.nOpaque-1)
	if g[0] != 3 || g[2] != 4 || g[1]+g[4] != 0 || g[14] != modeGround {
		t.Errorf("ground instance %v: want centred under (3, 4) with its top at y=0", g)
	}
	if solid := instanceAt(&s, 0); solid[13] != 1 || solid[14] != modeLit {
		t.Errorf("solid box instance %v: want opaque and lit", solid)
	}
	// Zero Rot counts as the identity.
	if solid := instanceAt(&s, 0); solid[9] != 1 {
		t.Errorf("solid box rotation w = %v, want 1", solid[9])
	}
	// The translucent boxes come last, farthest first.
	far, near := instanceAt(&s, s.nOpaque), instanceAt(&s, s.nOpaque+1)
	if far[2] != -20 || near[2] != -10 {
		t.Errorf("translucent order: z %v then %v, want -20 then -10", far[2], near[2])
	}
	if far[13] != 0.4 {
		t.Errorf("translucent alpha = %v, want 0.4", far[13])
	}
	if len(s.casters) != 4 {
		t.Fatalf("%d caster floats, want 4", len(s.casters))
	}
	if s.casters[1] != 0 {
		t.Errorf("caster bottom y = %v, want 0 for a unit cube resting on the ground", s.casters[1])
	}
	// The shadow bounds hold the widest shadow: 2.5 times the radius.
	r := 2.5 * s.casters[3]
	if want := [4]float32{-r, -r, r, r}; s.bounds != want {
		t.Errorf("shadow bounds %v, want %v", s.bounds, want)
	}
	s.build(boxes[1:], mgl32.Vec3{}, eye)
	if s.bounds[0] <= s.bounds[2] {
		t.Errorf("shadow bounds %v without casters, want empty (x0 > x1)", s.bounds)
	}
}

func TestEdgesOutlineTheRotatedBox(t *testing.T) {
	rot := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 1, 0})
	half := mgl32.Vec3{2, 1, 0.5}
	center := mgl32.Vec3{1, 2, 3}
	edges := appendEdges(nil, center, half, rot, mgl32.Vec4{1, 1, 1, 1})
	if len(edges) != 12*instFloats {
		t.Fatalf("%d floats, want 12 instances", len(edges))
	}
	// Every edge centre, taken back into box space, sits on two faces at once.
	inv := rot.Inverse()
	for i := range 12 {
		e := edges[i*instFloats:]
		local := inv.Rotate(mgl32.Vec3{e[0], e[1], e[2]}.Sub(center))
		onFaces := 0
		for a := range 3 {
			if math.Abs(math.Abs(float64(local[a]))-float64(half[a])) < 1e-5 {
				onFaces++
			}
		}
		if onFaces != 2 {
			t.Errorf("edge %d centre %v (box space) lies on %d faces, want 2", i, local, onFaces)
		}
	}
}

func TestCasterOfRotatedBoxReachesItsLowestCorner(t *testing.T) {
	// A unit cube turned 45 degrees about z stands on an edge: its lowest
	// point is sqrt(2) below the centre.
	rot := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 0, 1})
	c := appendCaster(nil, mgl32.Vec3{0, 5, 0}, mgl32.Vec3{1, 1, 1}, rot)
	if got, want := c[1], float32(5-math.Sqrt2); math.Abs(float64(got-want)) > 1e-5 {
		t.Errorf("bottom y = %v, want %v", got, want)
	}
}

func TestSceneBuildCapsCastersAndDoesNotAllocate(t *testing.T) {
	boxes := make([]Box, 200)
	for i := range boxes {
		boxes[i] = Box{Center: mgl32.Vec3{float32(i), 1, 0}, Half: mgl32.Vec3{0.2, 0.2, 0.2},
			Style: Style(i % 3), Color: mgl32.Vec4{1, 1, 1, 0.5}, Shadow: true}
	}
	var s sceneBuild
	s.build(boxes, mgl32.Vec3{}, mgl32.Vec3{0, 10, 10})
	if len(s.casters) != 4*maxCasters {
		t.Errorf("%d casters, want the cap %d", len(s.casters)/4, maxCasters)
	}
	// The casters kept are those nearest the camera target (x = 0 here).
	for i := 0; i < len(s.casters); i += 4 {
		if x := s.casters[i]; x >= maxCasters {
			t.Errorf("caster at x = %v kept, want only the %d nearest to x = 0", x, maxCasters)
		}
	}
	allocs := testing.AllocsPerRun(20, func() {
		s.build(boxes, mgl32.Vec3{}, mgl32.Vec3{0, 10, 10})
	})
	if allocs != 0 {
		t.Errorf("build allocates %v times a frame once warm, want 0", allocs)
	}
}

func TestCubeVerticesFaceOutward(t *testing.T) {
	v := cubeVertices()
	if len(v) != 36*6 {
		t.Fatalf("%d floats, want 216", len(v))
	}
	for tri := range 12 {
		var p [3]mgl32.Vec3
		for k := range 3 {
			o := (tri*3 + k) * 6
			p[k] = mgl32.Vec3{v[o], v[o+1], v[o+2]}
		}
		o := tri * 3 * 6
		n := mgl32.Vec3{v[o+3], v[o+4], v[o+5]}
		// Counter-clockwise from outside: the winding normal is the face normal.
		if w := p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Normalize(); w.Dot(n) < 0.999 {
			t.Errorf("triangle %d winds toward %v, face normal %v", tri, w, n)
		}
		for k := range 3 {
			if p[k].Dot(n) != 1 {
				t.Errorf("triangle %d vertex %v is not on the face with normal %v", tri, p[k], n)
			}
		}
	}
}

func TestMaxCastersFitsTheShader(t *testing.T) {
	var n int
	for _, line := range strings.Split(shaders.SceneFrag, "\n") {
		if _, err := fmt.Sscanf(line, "const int MAX_CASTERS = %d;", &n); err == nil {
			break
		}
	}
	if n < maxCasters {
		t.Errorf("scene.frag has room for %d casters, render sends up to %d", n, maxCasters)
	}
}

func TestBoxesBetweenTheCameraAndTheTargetFade(t *testing.T) {
	target, eye := mgl32.Vec3{0, 0.5, 0}, mgl32.Vec3{0, 5.5, 10}
	h := mgl32.Vec3{0.5, 0.5, 0.5}
	boxes := []Box{
		{Center: mgl32.Vec3{0, 3, 5}, Half: h, Color: mgl32.Vec4{1, 1, 1, 1}, Fades: true},   // on the line of sight
		{Center: mgl32.Vec3{4, 0.5, 2}, Half: h, Color: mgl32.Vec4{1, 1, 1, 1}, Fades: true}, // beside it
		{Center: eye, Half: h, Color: mgl32.Vec4{1, 1, 1, 1}, Fades: true},                   // holding the camera
		{Center: mgl32.Vec3{0, 2, 4}, Half: h, Color: mgl32.Vec4{0, 1, 0, 1}},                // on it, but not fading
	}
	var s sceneBuild
	s.build(boxes, target, eye)
	// Opaque: the box beside, the one that does not fade, the ground.
	if s.nOpaque != 3 {
		t.Errorf("%d opaque instances, want 3", s.nOpaque)
	}
	n := len(s.inst)/instFloats - s.nOpaque
	if n != 2 {
		t.Fatalf("%d faded instances, want 2", n)
	}
	for i := s.nOpaque; i < len(s.inst)/instFloats; i++ {
		inst := instanceAt(&s, i)
		if inst[13] != fadeAlpha || inst[3] != 0.5 {
			t.Errorf("faded instance %v: want alpha %v and its own size", inst, fadeAlpha)
		}
	}
}
