//go:build cgo

package window

import (
	"testing"

	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// TestSmallWindowsKeepMostOfTheView: the cubes scene with two bots and a
// desync banner, at 1280x720, 640x360 and 480x270: every part of the
// overlay whole (nothing cut or left out), the centre (the player's cube)
// clear, and the panels covering less than half of the window (at 640x360
// they covered about 70 %).
func TestSmallWindowsKeepMostOfTheView(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Scene, cfg.Players = "cubes", 3
	l, err := lab.New(cfg, true, 40)
	if err != nil {
		t.Fatal(err)
	}
	l.DesyncFound = func(m *predict.Misprediction) string { return "cube-desync-tick40.txt" }
	for i := 0; i < 3*64 && l.Desync == ""; i++ {
		if err := l.Tick(0); err != nil {
			t.Fatal(err)
		}
	}
	if l.Desync == "" {
		t.Fatal("no banner to lay out")
	}
	var f render.Frame
	for _, sz := range [][2]int{{1280, 720}, {640, 360}, {480, 270}} {
		l.SetWindowSize(sz[0], sz[1])
		BuildFrame(l, &f)
		for _, prob := range render.LayoutProblems(&f, sz[0], sz[1]) {
			t.Errorf("%dx%d: %s", sz[0], sz[1], prob)
		}
		cover := render.LayoutCover(&f, sz[0], sz[1])
		t.Logf("%dx%d: %d HUD lines, the overlay covers %.0f %%", sz[0], sz[1], len(f.HUD), 100*cover)
		if render.LayoutHidesCentre(&f, sz[0], sz[1]) {
			t.Errorf("%dx%d: the overlay hides the centre, where the player's cube is", sz[0], sz[1])
		}
		if cover >= 0.5 {
			t.Errorf("%dx%d: the overlay covers %.0f %% of the window", sz[0], sz[1], 100*cover)
		}
	}
}
