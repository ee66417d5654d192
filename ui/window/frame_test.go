//go:build cgo

package window

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
	"github.com/cubelab/cube/ui/viewer"
)

func TestFrameHoldsEveryBody(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Scene = "cubes"
	l, err := lab.New(cfg, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	var f render.Frame
	BuildFrame(l, &f)
	w := l.Session().Client.World()
	var solid, red, neutral, blocks, shadows int
	for _, b := range f.Boxes {
		if b.Style != render.Solid {
			continue
		}
		solid++
		switch b.Color {
		case ColorPlayer:
			red++
		case colorBody, colorResting, shade(colorBody, 1), shade(colorResting, 1):
			neutral++
		}
		if b.Blocks {
			blocks++
		}
		if b.Shadow {
			shadows++
		}
	}
	if solid != w.NumBodies() || red != 1 || neutral != w.NumBodies()-1 || blocks != 0 || shadows != w.NumBodies() {
		t.Errorf("%d bodies: %d solid boxes, %d red, %d neutral, %d blocking, %d casting shadows", w.NumBodies(), solid, red, neutral, blocks, shadows)
	}
	// The player's cube is drawn where the display puts it (with the
	// smoothing offset), the others where the predicted world has them.
	pos, _ := l.Session().Display()
	for _, b := range f.Boxes {
		if b.Color == ColorPlayer && b.Center != v32(pos) {
			t.Errorf("player cube at %v, want the displayed %v", b.Center, pos)
		}
	}
	// In the arena the statics are obstacles for the camera.
	if err := l.Act(lab.ActNextScene); err != nil { // pyramid
		t.Fatal(err)
	}
	for l.Session().Config.Scene != "arena" {
		if err := l.Act(lab.ActNextScene); err != nil {
			t.Fatal(err)
		}
	}
	BuildFrame(l, &f)
	blocks = 0
	for _, b := range f.Boxes {
		if b.Blocks {
			blocks++
		}
	}
	if blocks != 7 {
		t.Errorf("arena: %d blocking boxes, want its 7 statics", blocks)
	}
}

// TestTheKeyTableIsTheBindings: the bindings come from lab.KeyHelp, and
// each row's label names every key it binds; every action is bound, once;
// a row marked "in process" has the HUD's remote note, and only such a row.
func TestTheKeyTableIsTheBindings(t *testing.T) {
	bound := map[lab.Action]int{}
	for _, k := range lab.KeyHelp {
		names := strings.Fields(k.Key)
		if k.Key == "1 to 7" {
			names = strings.Fields("1 2 3 4 5 6 7")
		}
		for _, b := range k.Binds {
			if !slices.Contains(names, b.Name) {
				t.Errorf("row %q binds %s without naming it", k.Key, b.Name)
			}
			key, ok := render.KeyNamed(b.Name)
			if !ok {
				t.Errorf("row %q binds %q, no key's label", k.Key, b.Name)
				continue
			}
			if b.Move != 0 {
				if !slices.Contains(moveKeys, moveKey{key, b.Move}) {
					t.Errorf("%s is not held for its movement", b.Name)
				}
			} else if keyActions[key] != b.Act {
				t.Errorf("%s does %v, the table says %v", b.Name, keyActions[key], b.Act)
			}
			bound[b.Act]++
		}
		if len(k.Binds) == 0 && !strings.Contains(k.Key, "mouse") && k.Key != "wheel" {
			t.Errorf("row %q binds no key", k.Key)
		}
		if k.What == "" || k.Short == "" || len(k.Short) > len(k.What) {
			t.Errorf("key %s: description %q, short %q", k.Key, k.What, k.Short)
		}
		if inProcess := strings.Contains(k.What, "(in process)"); inProcess != (k.Remote != "") {
			t.Errorf("row %q: in process %v, remote note %q", k.Key, inProcess, k.Remote)
		}
	}
	for a := lab.ActNone + 1; a <= lab.ActVelocities; a++ {
		if want := map[lab.Action]int{lab.ActHelp: 2}[a]; bound[a] != max(want, 1) {
			t.Errorf("action %d is bound %d times", a, bound[a])
		}
	}
	if len(moveKeys) != 6 {
		t.Errorf("%d movement keys, want W A S D, Space and E", len(moveKeys))
	}
}

func TestTheDemosOverlayFitsFrom640x360Up(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.StartTick = 4294967000 // the widest tick numbers
	p, _ := netsim.PresetByName("terrible")
	cfg.Preset, cfg.Conditions = p.Name, p.Conditions
	l, err := lab.New(cfg, true, 40)
	if err != nil {
		t.Fatal(err)
	}
	l.DesyncFound = func(m *predict.Misprediction) string { return "cube-desync-tick4294967040.txt" }
	for i := 0; i < 3*64 && l.Desync == ""; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	if l.Desync == "" {
		t.Fatal("no banner to lay out")
	}
	l.Say("screenshot written to  " + screenshotName(time.Now(), 2)) // as F12 says it, in the current folder
	var f render.Frame
	for _, help := range []bool{false, true} {
		l.ShowHelp = help
		for _, sz := range [][2]int{{640, 360}, {800, 450}, {854, 480}, {1024, 576}, {1280, 720}, {1366, 768}, {1920, 1080}, {800, 600}, {1024, 768}} {
			l.SetWindowSize(sz[0], sz[1]) // the short HUD below 960x540, as the window does
			BuildFrame(l, &f)
			for _, prob := range render.LayoutProblems(&f, sz[0], sz[1]) {
				if prob == render.HelpAlone && sz[0] < 1280 {
					continue // small windows show the help alone
				}
				t.Errorf("%dx%d, help %v: %s", sz[0], sz[1], help, prob)
			}
		}
	}
	// Tab hides the HUD and the graph; the banner and the help stay.
	if err := l.Act(lab.ActOverlay); err != nil {
		t.Fatal(err)
	}
	BuildFrame(l, &f)
	if f.HUD != nil || f.Graph != nil || f.Banner == "" || !f.ShowHelp {
		t.Errorf("hidden overlay: HUD %d lines, graph %v, banner %q, help %v", len(f.HUD), f.Graph != nil, f.Banner, f.ShowHelp)
	}
}

// TestTheViewersKeyTableIsItsBindings: the viewer's bindings come from
// viewer.KeyHelp, each row's label names every key it binds, and every
// action of the viewer is bound.
func TestTheViewersKeyTableIsItsBindings(t *testing.T) {
	bound := map[viewer.Action]bool{}
	for _, k := range viewer.KeyHelp {
		names := strings.Fields(k.Key)
		for _, b := range k.Binds {
			key, ok := render.KeyNamed(b.Name)
			if !ok || !slices.Contains(names, b.Name) {
				t.Errorf("row %q binds %q: a key's label %v, named in the row %v", k.Key, b.Name, ok, slices.Contains(names, b.Name))
				continue
			}
			if viewerActions[key] != b.Act {
				t.Errorf("%s does %v, the table says %v", b.Name, viewerActions[key], b.Act)
			}
			bound[b.Act] = true
		}
	}
	for a := viewer.None + 1; a <= viewer.Velocities; a++ {
		if !bound[a] {
			t.Errorf("viewer action %d has no key", a)
		}
	}
}
