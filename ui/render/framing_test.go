package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// column returns the corners of a column of n unit boxes on the ground
// at x, z.
func column(x, z float32, n int) []mgl32.Vec3 {
	var out []mgl32.Vec3
	for i := range n {
		for _, c := range [][3]float32{{-0.5, 0, -0.5}, {0.5, 1, 0.5}} {
			out = append(out, mgl32.Vec3{x + c[0], float32(i) + c[1], z + c[2]})
		}
	}
	return out
}

// TestFitViewFramesATallStack: a stack of ten boxes beside the followed
// cube is cut off at the top by the default view and whole in the fitted
// one, at 16:9 and 4:3; without points the view is the default.
func TestFitViewFramesATallStack(t *testing.T) {
	target := mgl32.Vec3{3, 0.5, 0}
	pts := column(0, 0, 10)
	for _, sz := range [][2]int{{1280, 720}, {640, 480}, {480, 270}} {
		whole := Rect{0, 0, float32(sz[0]), float32(sz[1])}
		if holds(DefaultView(), target, pts, sz[0], sz[1], whole) {
			t.Fatalf("%v: the default view holds the stack: the test's premise is off", sz)
		}
		v := FitView(target, pts, true, sz[0], sz[1], whole)
		if !holds(v, target, pts, sz[0], sz[1], whole) {
			t.Errorf("%v: view %+v does not hold the stack", sz, v)
		}
		if v.Dist <= camDist || v.Dist >= camMaxDist {
			t.Errorf("%v: distance %v, want between the default and the farthest", sz, v.Dist)
		}
	}
	if v := FitView(target, nil, true, 1280, 720, Rect{0, 0, 1280, 720}); v != DefaultView() {
		t.Errorf("no points: %+v, want the default", v)
	}
}

// TestFitViewSeesACornerCubeFromOutside: a cube at a corner of a block of
// boxes is seen from its own side: the camera is farther from the block's
// centre than the cube.
func TestFitViewSeesACornerCubeFromOutside(t *testing.T) {
	var pts []mgl32.Vec3
	for x := range 10 {
		for z := range 10 {
			pts = append(pts, column(float32(x)*1.2-6, float32(z)*1.2-6, 3)...)
		}
	}
	target := mgl32.Vec3{-6, 0.5, -6}
	v := FitView(target, pts, true, 1280, 720, Rect{0, 0, 1280, 720})
	c := camera{target: target, yaw: v.Yaw, pitch: v.Pitch, dist: v.Dist}
	eye := c.eye()
	if d2 := eye[0]*eye[0] + eye[2]*eye[2]; d2 <= 2*36 {
		t.Errorf("eye %v is not outside the block's corner (view %+v)", eye, v)
	}
}

// TestFitViewFramesInTheFreePart: the stack framed in the right half of
// the window lands in that half, its points spread around the half's
// centre, and projecting through the camera as Draw sets it up (the
// target at the free part's centre) agrees with View.Project.
func TestFitViewFramesInTheFreePart(t *testing.T) {
	target := mgl32.Vec3{3, 0.5, 0}
	pts := column(0, 0, 10)
	free := Rect{640, 0, 640, 720}
	v := FitView(target, pts, true, 1280, 720, free)
	var minX, maxX float32 = 1280, 0
	for _, p := range pts {
		x, y, ok := v.Project(target, p, 1280, 720, free)
		if !ok || x < free.X || x > free.X+free.W || y < free.Y || y > free.Y+free.H {
			t.Errorf("%v lands at %.0f, %.0f (in front %v), outside %+v", p, x, y, ok, free)
		}
		minX, maxX = min(minX, x), max(maxX, x)
	}
	if minX > 960 || maxX < 960 {
		t.Errorf("the points span x %.0f to %.0f, not around the free part's centre 960", minX, maxX)
	}
	c := newCamera()
	c.yaw, c.pitch, c.dist = v.Yaw, v.Pitch, v.Dist
	c.follow(target, 0)
	c.frameFree(free, 1280, 720, 0, true)
	q := c.proj(1280, 720).Mul4(c.view()).Mul4x1(target.Vec4(1))
	if x, y := (q[0]/q[3]+1)/2*1280, (1-q[1]/q[3])/2*720; math.Abs(float64(x-960)) > 0.5 || math.Abs(float64(y-360)) > 0.5 {
		t.Errorf("the camera draws the target at %.1f, %.1f, want the free part's centre 960, 360", x, y)
	}
}

// TestTheFreePartKeepsToTheLastOne: two free parts of nearly equal area
// (beside the status panel above the graph, and beside both): as the
// status panel widens by a few characters the larger changes, but the
// camera keeps framing in the part it framed in last until another is
// clearly larger, instead of swinging between their centres.
func TestTheFreePartKeepsToTheLastOne(t *testing.T) {
	var h hud
	h.l.m = 10
	h.l.status = rect{10, 10, 230, 100}
	h.l.graph = rect{10, 235, 385, 115}
	first := h.free(640, 360, Rect{})
	if first.X > 300 || first.H > 300 {
		t.Fatalf("first free part %+v, want the one beside the status panel, above the graph", first)
	}
	h.l.status.w = 260 // a few characters wider: the part beside both is now the larger
	if r := h.free(640, 360, Rect{}); r.H < 300 {
		t.Fatalf("without a last part: %+v, want the one beside both panels (the test's premise)", r)
	}
	if r := h.free(640, 360, first); r.H > 300 || r.X < first.X {
		t.Errorf("after %+v: %+v, want the part beside the status panel, above the graph, kept", first, r)
	}
	h.l.status.w = 330 // much wider: the other part is clearly larger
	if r := h.free(640, 360, first); r.H < 300 {
		t.Errorf("status panel 330 wide: %+v, want the part beside both taken", r)
	}
}

// TestTheFreePartIsClearOfThePanels: for the demo's frames (with and
// without a banner and the help beside the panels) and the viewer's (with
// its timeline), at sizes from 480x270 to 1920x1080, the free part lies
// in the window, overlaps no panel that is shown, and is a fair share of
// the window (a fifth; a tenth while the help is shown beside the panels).
func TestTheFreePartIsClearOfThePanels(t *testing.T) {
	checkAtlasOnce.Do(func() { checkAtlas, checkAtlasErr = newAtlas(1) })
	if checkAtlasErr != nil {
		t.Fatal(checkAtlasErr)
	}
	graph := []Sample{{T: 9, Error: 0.1, Correction: true}, {T: 9.5, Resync: true}, {T: 10, Error: 0.01}}
	frames := map[string]*Frame{
		"demo":        {HUD: testHUD, Graph: graph, Now: 10},
		"banner":      {HUD: testHUD, Graph: graph, Now: 10, Banner: testBanner},
		"help":        {HUD: testHUD, Graph: graph, Now: 10, Help: testHelp, ShowHelp: true},
		"viewer":      {HUD: testHUD[:5], Banner: testBanner, Timeline: &Timeline{At: 0.5, Checked: 1, Left: "tick 512", Right: "paused 1x"}},
		"hidden hud":  {},
		"banner only": {Banner: testBanner},
	}
	for name, f := range frames {
		for _, sz := range [][2]int{{1920, 1080}, {1280, 720}, {800, 450}, {640, 360}, {480, 270}} {
			var h hud
			h.build(checkAtlas, f, sz[0], sz[1])
			W, H := float32(sz[0]), float32(sz[1])
			r := h.free(W, H, Rect{})
			c := rect{r.X, r.Y, r.W, r.H}
			if r.X < 0 || r.Y < 0 || r.X+r.W > W || r.Y+r.H > H {
				t.Errorf("%s %v: free part %+v leaves the window", name, sz, r)
			}
			panels := map[string]rect{"status": h.l.status, "banner": h.l.banner, "graph": h.l.graph, "timeline": h.timeline.panel}
			if !h.l.helpAlone {
				panels["help"] = h.l.help
			}
			for p, pr := range panels {
				if overlaps(c, pr) {
					t.Errorf("%s %v: free part %+v overlaps the %s panel %v", name, sz, r, p, pr)
				}
			}
			share := float32(0.2)
			if f.ShowHelp {
				share = 0.1 // the help beside the panels takes most of the rest while shown
			}
			if r.W*r.H < share*W*H {
				t.Errorf("%s %v: free part %+v is %.0f %% of the window", name, sz, r, 100*r.W*r.H/(W*H))
			}
		}
	}
}
