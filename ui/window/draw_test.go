//go:build cgo

package window

import (
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// glfw and OpenGL must run on the main thread, which render's init locked
// to the main goroutine; tests run on other goroutines. TestMain runs the
// tests on a goroutine and serves onMain calls on the main goroutine.

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

// openWindow opens a window of w×h, or skips the test without a display.
func openWindow(t *testing.T, w, h int) *render.Window {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no DISPLAY; run under xvfb-run to test drawing")
	}
	var win *render.Window
	var err error
	onMain(func() { win, err = render.Open("window test", w, h) })
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { onMain(win.Close) })
	return win
}

// shoot draws f from view v a few times (the camera settles) and returns
// the last frame's pixels.
func shoot(t *testing.T, win *render.Window, f *render.Frame, v render.View) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "frame.png")
	var err error
	onMain(func() {
		win.SetHome(v)
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
	if d := os.Getenv("CUBE_TEST_SHOTS"); d != "" {
		shots++
		name := fmt.Sprintf("%s-%d.png", filepath.Base(t.Name()), shots)
		if shotName != "" {
			name = shotName + ".png"
		}
		if out, err := os.Create(filepath.Join(d, name)); err == nil {
			_ = png.Encode(out, img)
			out.Close()
		}
	}
	return img
}

// shots numbers the frames saved for a person to look at (CUBE_TEST_SHOTS).
var shots int

// shotName, when set, names the next frame saved instead (shootNamed).
var shotName string

// shootNamed is shoot, saving the frame as NAME.png under CUBE_TEST_SHOTS.
func shootNamed(t *testing.T, win *render.Window, f *render.Frame, v render.View, name string) image.Image {
	t.Helper()
	shotName = name
	defer func() { shotName = "" }()
	return shoot(t, win, f, v)
}

// luma returns the brightness of the pixel at x, y, 0 to 1.
func luma(img image.Image, x, y int) float64 {
	r, g, b, _ := img.At(x, y).RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}

// pixelsOf returns the brightness, in img, of the pixels where img and
// marked differ: the pixels of the boxes marked recoloured.
func pixelsOf(img, marked image.Image) []float64 {
	var out []float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r2, g2, b2, _ := marked.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				out = append(out, luma(img, x, y))
			}
		}
	}
	slices.Sort(out)
	return out
}

// quantile returns the q-quantile of sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}

// marker is the colour the boxes under test are recoloured with to find
// their pixels.
var marker = mgl32.Vec4{0, 0, 1, 1}

// sceneFrame returns the frame of the scene's first tick, without the
// overlay, and its player's cube's position.
func sceneFrame(t *testing.T, scene string) (*render.Frame, mgl32.Vec3) {
	t.Helper()
	cfg := session.DefaultConfig()
	cfg.Scene = scene
	l, err := lab.New(cfg, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &render.Frame{}
	BuildFrame(l, f)
	f.HUD, f.Graph, f.Banner, f.ShowHelp = nil, nil, "", false
	pos, _ := l.Display()
	return f, v32(pos)
}

// recolour returns a copy of f with the boxes that keep in marker's colour.
func recolour(f *render.Frame, keep func(b *render.Box) bool) *render.Frame {
	g := *f
	g.Boxes = slices.Clone(f.Boxes)
	for i := range g.Boxes {
		if keep(&g.Boxes[i]) {
			g.Boxes[i].Color = marker
		}
	}
	return &g
}

// TestRestingBodiesAreLighterThanWallsAndGround: the pyramid's bodies at
// rest and the arena's walls, from four sides (towards the sun, away from
// it, across), against the ground below them: the resting bodies' pixels
// are clearly lighter than the walls' and the ground's, even their darkest
// faces. Lit by the sun and a dim ambient alone, a body's face turned from
// the sun would be a third of its colour, as dark as a wall.
func TestRestingBodiesAreLighterThanWallsAndGround(t *testing.T) {
	win := openWindow(t, 640, 360)
	pyramid, _ := sceneFrame(t, "pyramid")
	arena, _ := sceneFrame(t, "arena")
	resting := func(b *render.Box) bool {
		return !b.Blocks && (b.Color == colorResting || b.Color == shade(colorResting, 1))
	}
	walls := func(b *render.Box) bool { return b.Blocks }
	n := 0
	for _, b := range pyramid.Boxes {
		if resting(&b) {
			n++
		}
	}
	if n != 55 {
		t.Fatalf("%d of the pyramid's 55 bodies drawn at rest", n)
	}
	// The pyramid framed from 14 m in front of it, as the walls of the
	// arena around its centre.
	pyramid.Follow = mgl32.Vec3{0, 3, 0}
	arena.Follow = mgl32.Vec3{0, 1, 0}
	for _, yaw := range []float32{0, math.Pi / 2, math.Pi, -math.Pi / 2, 0.6, -2.5} {
		v := render.View{Yaw: yaw, Pitch: 0.45, Dist: 16}
		img := shoot(t, win, pyramid, v)
		bodies := pixelsOf(img, shoot(t, win, recolour(pyramid, resting), v))
		var ground []float64
		bnd := img.Bounds()
		for y := bnd.Max.Y - bnd.Dy()/8; y < bnd.Max.Y; y++ { // the ground in front of both
			for x := bnd.Min.X; x < bnd.Max.X; x++ {
				ground = append(ground, luma(img, x, y))
			}
		}
		slices.Sort(ground)
		aimg := shoot(t, win, arena, v)
		wall := pixelsOf(aimg, shoot(t, win, recolour(arena, walls), v))
		if len(bodies) < 1000 || len(wall) < 1000 {
			t.Fatalf("yaw %.2f: %d pixels of bodies, %d of walls: too few to judge", yaw, len(bodies), len(wall))
		}
		b10, b50 := quantile(bodies, 0.1), quantile(bodies, 0.5)
		w50, w90 := quantile(wall, 0.5), quantile(wall, 0.9)
		g50, g90 := quantile(ground, 0.5), quantile(ground, 0.9)
		t.Logf("yaw %5.2f: resting bodies p10 %.2f median %.2f; walls median %.2f p90 %.2f; ground median %.2f p90 %.2f",
			yaw, b10, b50, w50, w90, g50, g90)
		if b50 < w50+0.2 || b50 < g50+0.2 {
			t.Errorf("yaw %.2f: resting bodies' median brightness %.2f, walls' %.2f, ground's %.2f: want the bodies 0.2 lighter than both", yaw, b50, w50, g50)
		}
		if b10 < w90 || b10 < g90 {
			t.Errorf("yaw %.2f: the darkest tenth of the resting bodies' pixels at %.2f, the brightest tenth of the walls' at %.2f, of the ground's at %.2f: want even the dark faces lighter", yaw, b10, w90, g90)
		}
	}
}

// TestTheDropBlockHasNoSpeckles: the drop scene's 1000 boxes settled in
// their block, seen from the side away from the sun as the window frames
// it: few pixels of the block stand out from their neighbours. The layers
// settle millimetres apart (the layout shifts each layer 1 cm along x, and
// they slide by a few mm), so each box's lit top face shows as a ledge far
// narrower than a pixel between the layers' side faces; drawn without
// multisampling, such ledges make scattered white dots on any side face
// much darker than the tops.
func TestTheDropBlockHasNoSpeckles(t *testing.T) {
	win := openWindow(t, 640, 360)
	w, sc, err := game.Build("drop", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 6 * 64 {
		w.Step()
	}
	f := &render.Frame{Follow: mgl32.Vec3{0, 5, 0}}
	for i := 0; i < w.NumBodies(); i++ {
		b := bodyBox(w, sc, i)
		b.Fades = false // the followed point is inside the block
		f.Boxes = append(f.Boxes, b)
	}
	block := func(b *render.Box) bool { return true }
	v := render.View{Yaw: -3 * math.Pi / 4, Pitch: 0.45, Dist: 30} // from -x, -z: the sun behind the block
	img := shoot(t, win, f, v)
	marked := shoot(t, win, recolour(f, block), v)
	bnd := img.Bounds()
	in := func(x, y int) bool {
		r1, g1, b1, _ := img.At(x, y).RGBA()
		r2, g2, b2, _ := marked.At(x, y).RGBA()
		return r1 != r2 || g1 != g2 || b1 != b2
	}
	specks, n := 0, 0
	for y := bnd.Min.Y + 1; y < bnd.Max.Y-1; y++ {
		for x := bnd.Min.X + 1; x < bnd.Max.X-1; x++ {
			if !in(x, y) || !in(x-1, y) || !in(x+1, y) || !in(x, y-1) || !in(x, y+1) {
				continue
			}
			n++
			around := (luma(img, x-1, y) + luma(img, x+1, y) + luma(img, x, y-1) + luma(img, x, y+1)) / 4
			if luma(img, x, y)-around > 0.15 {
				specks++
			}
		}
	}
	t.Logf("%d of the block's %d inner pixels brighter than their neighbours by 0.15", specks, n)
	if n < 5000 {
		t.Fatalf("the block covers %d pixels: not in view", n)
	}
	if specks > n/500 {
		t.Errorf("%d of the block's %d pixels are specks brighter than their neighbours", specks, n)
	}
}
