package render

import (
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// glfw and OpenGL must run on the main thread, which init locked to the
// main goroutine; tests run on other goroutines. TestMain therefore runs
// the tests on a goroutine and serves onMain calls on the main goroutine.

var mainCalls = make(chan func())

func TestMain(m *testing.M) {
	done := make(chan int)
	go func() { done <- m.Run() }()
	for {
		select {
		case f := <-mainCalls:
			f()
		case code := <-done:
			os.Exit(code)
		}
	}
}

// onMain runs f on the main thread and waits for it.
func onMain(f func()) {
	done := make(chan struct{})
	mainCalls <- func() {
		defer close(done)
		f()
	}
	<-done
}

func TestOpenFailsCleanlyWithoutDisplay(t *testing.T) {
	if !usesX11() {
		t.Skip("only X11 systems need DISPLAY")
	}
	t.Setenv("DISPLAY", "")
	var err error
	onMain(func() { _, err = Open("test", 0, 0) })
	if err == nil || !strings.HasPrefix(err.Error(), "render: no display: DISPLAY is not set") {
		t.Errorf("Open without DISPLAY: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans lines: %q", err)
	}

	// A display that does not exist: no panic, one line naming the cause.
	t.Setenv("DISPLAY", ":4711")
	onMain(func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("Open panicked: %v", r)
			}
		}()
		_, err = Open("test", 0, 0)
	})
	if err == nil || !strings.HasPrefix(err.Error(), "render: no display") {
		t.Errorf("Open with an unreachable DISPLAY: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("error spans lines: %q", err)
	}
	t.Logf("unreachable display: %v", err)
}

// openTestWindow opens a window, or skips the test when there is no display.
func openTestWindow(t *testing.T, w, h int) *Window {
	t.Helper()
	if usesX11() && os.Getenv("DISPLAY") == "" {
		t.Skip("no DISPLAY; run under xvfb-run to test drawing")
	}
	var win *Window
	var err error
	onMain(func() { win, err = Open("render test", w, h) })
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { onMain(win.Close) })
	return win
}

// drawAndShoot draws f a few times (letting the camera settle), takes a
// screenshot and returns it decoded.
func drawAndShoot(t *testing.T, win *Window, f *Frame) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "frame.png")
	var err error
	onMain(func() {
		for range 3 {
			win.PollEvents()
			win.Draw(f, 1.0/60)
			if err = win.Screenshot(path); err != nil {
				return
			}
			win.Swap()
		}
	})
	if err != nil {
		t.Fatalf("Screenshot: %v", err)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	img, err := png.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func rgb(img image.Image, x, y int) (r, g, b float64) {
	R, G, B, _ := img.At(x, y).RGBA()
	return float64(R) / 0xffff, float64(G) / 0xffff, float64(B) / 0xffff
}

func TestWindowDrawsSceneAndOverlay(t *testing.T) {
	win := openTestWindow(t, 640, 360)
	var fw, fh int
	onMain(func() { fw, fh = win.Size() })
	if fw <= 0 || fh <= 0 {
		t.Fatalf("Size() = %d, %d", fw, fh)
	}
	if info := win.GLInfo(); !strings.Contains(info, "OpenGL") {
		t.Errorf("GLInfo() = %q", info)
	}
	t.Logf("%dx%d, %s", fw, fh, win.GLInfo())

	// A red cube at the camera target is drawn at the screen centre; the
	// sky is above, the ground below.
	cube := Box{Center: mgl32.Vec3{0, 1, 0}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{0.9, 0.1, 0.1, 1}, Shadow: true}
	img := drawAndShoot(t, win, &Frame{Boxes: []Box{cube}, Follow: cube.Center})
	if b := img.Bounds(); b.Dx() != fw || b.Dy() != fh {
		t.Fatalf("screenshot is %v, want %dx%d", b, fw, fh)
	}
	if r, g, b := rgb(img, fw/2, fh/2); r < g+0.2 || r < b+0.2 {
		t.Errorf("centre pixel %.2f %.2f %.2f, want the red cube", r, g, b)
	}
	if r, _, b := rgb(img, fw/2, 2); b < r {
		t.Errorf("top pixel has more red than blue (%.2f, %.2f), want sky", r, b)
	}
	if r, g, b := rgb(img, fw/2, fh-3); r < 0.2 || g < 0.2 || b < 0.2 || r-b > 0.2 {
		t.Errorf("bottom pixel %.2f %.2f %.2f, want grey ground", r, g, b)
	}

	// The overlay: a dark HUD panel with light glyphs in the top left corner.
	img = drawAndShoot(t, win, &Frame{HUD: []string{"HUD HUD HUD HUD HUD", "line two"}, Follow: cube.Center})
	dark, light := 0, 0
	for y := 12; y < 40; y++ {
		for x := 12; x < 120; x++ {
			switch r, g, b := rgb(img, x, y); {
			case r+g+b < 1.2:
				dark++
			case r+g+b > 2.4:
				light++
			}
		}
	}
	if dark < 100 || light < 50 {
		t.Errorf("HUD corner has %d dark and %d light pixels, want a panel with text", dark, light)
	}

	// Resizing reaches Size and the screenshots.
	onMain(func() {
		win.win.SetSize(400, 300)
		for range 50 {
			if win.PollEvents(); win.fbW == 400 {
				break
			}
			win.Draw(nil, 0)
			win.Swap()
		}
		fw, fh = win.Size()
	})
	if fw != 400 || fh != 300 {
		t.Fatalf("after SetSize(400, 300): Size() = %d, %d", fw, fh)
	}
	img = drawAndShoot(t, win, nil)
	if b := img.Bounds(); b.Dx() != 400 || b.Dy() != 300 {
		t.Errorf("screenshot after the resize is %v", b)
	}
}

func TestDrawDoesNotAllocate(t *testing.T) {
	win := openTestWindow(t, 320, 180)
	samples := make([]Sample, 640)
	for i := range samples {
		samples[i] = Sample{T: float64(i) / 64, Error: 0.01 * float64(i%5), Correction: i%40 == 0, InFlight: float64(i % 9)}
	}
	f := &Frame{
		Boxes: []Box{
			{Center: mgl32.Vec3{0, 1, 0}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{1, 0, 0, 1}, Shadow: true},
			{Center: mgl32.Vec3{1, 1, 0}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{1, 1, 0, 0.4}, Style: Translucent},
			{Center: mgl32.Vec3{2, 1, 0}, Half: mgl32.Vec3{1, 1, 1}, Color: mgl32.Vec4{0, 0, 1, 1}, Style: Wireframe},
			{Center: mgl32.Vec3{0, 1, 6}, Half: mgl32.Vec3{5, 1, 0.3}, Color: mgl32.Vec4{0.5, 0.5, 0.5, 1}, Blocks: true},
			{Center: mgl32.Vec3{0, 3, 4}, Half: mgl32.Vec3{0.5, 0.5, 0.5}, Color: mgl32.Vec4{0.8, 0.8, 0.7, 1}, Fades: true, Shadow: true},
		},
		HUD: testHUD, Help: testHelp, ShowHelp: true, Banner: testBanner,
		Graph: samples, Now: 10,
	}
	var allocs float64
	onMain(func() {
		win.Draw(f, 0.016) // warm up the reused buffers
		allocs = testing.AllocsPerRun(20, func() { win.Draw(f, 0.016) })
	})
	if allocs > 0 {
		t.Errorf("Draw allocates %v times a frame, want 0", allocs)
	}
}

func TestGhostsOverTheCubeDoNotZFight(t *testing.T) {
	win := openTestWindow(t, 640, 360)
	// The red cube and two ghosts at the same place, turned by a hair as a
	// prediction that matches the server but for rounding would be: drawn
	// at their true size, the faces fight in stripes.
	rot := mgl32.QuatRotate(0.3, mgl32.Vec3{0, 1, 0})
	hair := mgl32.QuatRotate(0.3+2e-5, mgl32.Vec3{0, 1, 0})
	c := mgl32.Vec3{0, 3, 0}
	h := mgl32.Vec3{3, 3, 3}
	f := &Frame{Follow: c, Boxes: []Box{
		{Center: c, Half: h, Rot: rot, Color: mgl32.Vec4{0.85, 0.25, 0.2, 1}},
		{Center: c, Half: h, Rot: hair, Color: mgl32.Vec4{1, 0.85, 0.1, 0.35}, Style: Translucent},
		{Center: c, Half: h, Rot: rot, Color: mgl32.Vec4{0.2, 0.45, 1, 0.35}, Style: Translucent},
	}}
	img := drawAndShoot(t, win, f)
	if d := os.Getenv("CUBE_TEST_SHOTS"); d != "" {
		savePNG(t, filepath.Join(d, "ghosts.png"), img)
	}
	// Inside the cube's front faces (the cube fills the screen centre), the
	// colour varies smoothly: count neighbouring pixels that jump.
	jumps, n := 0, 0
	for y := 160; y < 220; y++ {
		for x := 290; x < 350; x++ {
			r1, g1, b1 := rgb(img, x, y)
			r2, g2, b2 := rgb(img, x+1, y)
			r3, g3, b3 := rgb(img, x, y+1)
			d := math.Abs(r1-r2) + math.Abs(g1-g2) + math.Abs(b1-b2)
			d = math.Max(d, math.Abs(r1-r3)+math.Abs(g1-g3)+math.Abs(b1-b3))
			if d > 0.08 {
				jumps++
			}
			n++
		}
	}
	// The edge between two faces crosses the patch: a few jumps; stripes
	// make many.
	if jumps > n/20 {
		t.Errorf("%d of %d pixels differ sharply from a neighbour: the ghosts z-fight with the cube", jumps, n)
	}
	// The ghosts are seen: the faces are tinted, not the bare red cube.
	r, g, b := rgb(img, 320, 180)
	if !(g > 0.2 && r > g) {
		t.Errorf("centre pixel %.2f %.2f %.2f: want the red cube seen through the ghosts", r, g, b)
	}
	t.Logf("%d sharp pixels of %d; centre %.2f %.2f %.2f", jumps, n, r, g, b)
}

// savePNG writes img to path, for a person to look at (CUBE_TEST_SHOTS).
func savePNG(t *testing.T, path string, img image.Image) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
