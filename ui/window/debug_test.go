//go:build cgo

package window

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// hot counts the bodies the rewind layer tints.
func hot(d *lab.Debug) int {
	n := 0
	for _, h := range d.Heat {
		if h > 0 {
			n++
		}
	}
	return n
}

// nudgeReach nudges the server's cube while in is held and returns how
// many bodies the rewinds of the next 24 ticks re-simulated, as the rewind
// layer tints them.
func nudgeReach(t *testing.T, l *lab.Lab, in game.Input) int {
	t.Helper()
	l.Debug.Heat = nil // from here on
	if err := l.Frame(0); err != nil {
		t.Fatal(err)
	}
	if err := l.Act(lab.ActNudge); err != nil {
		t.Fatal(err)
	}
	for range 24 {
		if err := l.Tick(in); err != nil {
			t.Fatal(err)
		}
		if err := l.Frame(0); err != nil {
			t.Fatal(err)
		}
	}
	return hot(&l.Debug)
}

// TestDebugLayers drives the cubes scene: a nudge of the server's cube
// while the player's cube runs alone, then while it pulls the cubes into
// a heap. The rewind layer tints the bodies the corrections re-simulated:
// a few for the first, many more for the second, whose correction reaches
// the heap through its contacts. Every layer draws something in the
// heap, and nothing is drawn with every layer off. CUBE_TEST_SHOTS=DIR
// keeps each layer's frame at 1280x720, and the rewind's after the nudge
// alone (docs/shots/debug-*.png).
func TestDebugLayers(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Scene = "cubes"
	l, err := lab.New(cfg, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	l.Debug.On[lab.LayerRewind] = true
	for range 64 {
		if err := l.Tick(0); err != nil {
			t.Fatal(err)
		}
	}
	win := openWindow(t, 1280, 720)
	f := &render.Frame{}
	v := render.View{Yaw: 0.6, Pitch: 0.6, Dist: 10}
	light := nudgeReach(t, l, 0)
	BuildFrame(l, f)
	shootNamed(t, win, f, v, "debug-rewind-light")
	for range 150 {
		if err := l.Tick(game.Pull | game.Forward); err != nil {
			t.Fatal(err)
		}
	}
	pull := nudgeReach(t, l, game.Pull)
	t.Logf("a nudge re-simulated %d bodies alone, %d in a pull", light, pull)
	if light == 0 || pull < 4*light {
		t.Fatalf("a nudge re-simulated %d bodies alone and %d in a pull: want some, and far more in the pull", light, pull)
	}

	l.Debug.On = [lab.NumLayers]bool{}
	if err := l.Frame(0); err != nil {
		t.Fatal(err)
	}
	BuildFrame(l, f)
	if len(f.Lines)+len(f.Outlines) != 0 {
		t.Fatalf("%d lines and %d outlines drawn with every layer off", len(f.Lines), len(f.Outlines))
	}
	l.Debug.On[lab.LayerCorrection] = true
	nudgeReach(t, l, game.Pull) // a correction to keep
	for k := range lab.NumLayers {
		l.Debug.On = [lab.NumLayers]bool{}
		l.Debug.On[k] = true
		if err := l.Frame(0); err != nil {
			t.Fatal(err)
		}
		if k == lab.LayerRewind {
			nudgeReach(t, l, game.Pull)
		}
		BuildFrame(l, f)
		tinted := 0
		for _, b := range f.Boxes {
			if b.Style == render.Solid && b.Color != colorStatic && b.Color != ColorPlayer && b.Color != shade(colorBody, 0) &&
				b.Color != shade(colorBody, 1) && b.Color != shade(colorResting, 0) && b.Color != shade(colorResting, 1) {
				tinted++
			}
		}
		t.Logf("%s: %d lines, %d outlines, %d bodies tinted", lab.LayerNames[k], len(f.Lines), len(f.Outlines), tinted)
		switch k {
		case lab.LayerIslands, lab.LayerRewind:
			if tinted == 0 {
				t.Errorf("%s: no body tinted", lab.LayerNames[k])
			}
		default:
			if len(f.Lines)+len(f.Outlines) == 0 {
				t.Errorf("%s: nothing drawn", lab.LayerNames[k])
			}
		}
		shootNamed(t, win, f, v, "debug-"+lab.LayerNames[k])
	}
}
