//go:build cgo

package window

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/session/recording"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
	"github.com/cubelab/cube/ui/viewer"
)

// pullRecord records the cubes scene while the player's cube pulls the
// cubes into a heap for 150 ticks, and reads the record back.
func pullRecord(t *testing.T) *record.Record {
	t.Helper()
	cfg := session.DefaultConfig()
	cfg.Scene = "cubes"
	l, err := lab.New(cfg, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pull.rec")
	var out, errs strings.Builder
	end, err := Record(l, path, recording.Options{FullEvery: 64}, &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	for range 150 {
		if err := l.Tick(game.Pull | game.Forward); err != nil {
			t.Fatal(err)
		}
	}
	end()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.Read(f, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// viewerTinted counts the solid boxes of f in none of the colours the
// viewer gives bodies without a debug layer.
func viewerTinted(f *render.Frame) int {
	n := 0
	for _, b := range f.Boxes {
		if b.Style != render.Solid {
			continue
		}
		switch b.Color {
		case colorStatic, colorDiffers, ColorPlayer, colorResting, colorBody:
			continue
		}
		plain := false
		for _, c := range SlotColors {
			plain = plain || b.Color == c
		}
		if !plain {
			n++
		}
	}
	return n
}

// TestViewerLayers draws the record viewer at the end of a pull in the
// cubes scene: with every layer off it draws no line and tints no body,
// and each of its layers (F2 to F5, F8) alone draws something, lines or
// tinted bodies, that changes the picture. CUBE_TEST_SHOTS=DIR keeps each
// layer's frame at 1280x720 (viewer-debug-*.png).
func TestViewerLayers(t *testing.T) {
	rec := pullRecord(t)
	v, err := viewer.NewView("pull.rec", rec)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.S.Seek(v.S.Len()); err != nil {
		t.Fatal(err)
	}
	v.Refresh()
	v.HideHUD = true
	win := openWindow(t, 1280, 720)
	var f render.Frame
	var tl render.Timeline
	var dbg lab.Debug
	view := render.View{Yaw: 0.6, Pitch: 0.6, Dist: 10}
	buildViewerFrame(v, &f, &tl, &dbg)
	if len(f.Lines)+len(f.Outlines) != 0 || viewerTinted(&f) != 0 {
		t.Fatalf("every layer off: %d lines, %d bodies tinted", len(f.Lines), viewerTinted(&f))
	}
	off := shootNamed(t, win, &f, view, "viewer-debug-off")
	for k := range viewer.NumLayers {
		v.Layers = [viewer.NumLayers]bool{}
		v.Layers[k] = true
		buildViewerFrame(v, &f, &tl, &dbg)
		name := lab.LayerNames[viewerLayers[k]]
		lines, tinted := len(f.Lines)+len(f.Outlines), viewerTinted(&f)
		img := shootNamed(t, win, &f, view, "viewer-debug-"+name)
		changed := len(pixelsOf(img, off))
		t.Logf("%s: %d lines and outlines, %d bodies tinted, %d pixels changed", name, lines, tinted, changed)
		if viewerLayers[k] == lab.LayerIslands {
			if tinted == 0 {
				t.Errorf("%s: no body tinted", name)
			}
		} else if lines == 0 {
			t.Errorf("%s: nothing drawn", name)
		}
		if changed < 100 {
			t.Errorf("%s: %d pixels changed: want the layer to show", name, changed)
		}
	}
}
