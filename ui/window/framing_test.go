//go:build cgo

package window

import (
	"testing"

	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// TestTheSubjectIsFramedInTheFreePart: in every scene, at 1280x720, 800x450
// and 640x360, with and without two bots, the camera's home view puts
// every corner of the subject (the player's cube, the bots' cubes, the
// structure) inside the part of the window that the status panel, the
// graph and the banner leave free, as the layout places them. Framed in the
// whole window instead, the subject reaches under the panels at 1280x720
// (the pyramid's apex under the status panel, a bot of the cubes scene
// under the graph); the test checks that premise.
func TestTheSubjectIsFramedInTheFreePart(t *testing.T) {
	for _, scene := range []string{"arena", "cubes", "pyramid", "stack", "drop"} {
		for _, players := range []int{1, 3} {
			cfg := session.DefaultConfig()
			cfg.Scene, cfg.Players = scene, players
			l, err := lab.New(cfg, true, 0)
			if err != nil {
				t.Fatal(err)
			}
			for range 32 {
				if err := l.Frame(1.0 / 64); err != nil {
					t.Fatal(err)
				}
			}
			for _, sz := range [][2]int{{1280, 720}, {800, 450}, {640, 360}} {
				w, h := sz[0], sz[1]
				l.SetWindowSize(w, h)
				var f render.Frame
				BuildFrame(l, &f)
				free := render.FreeRect(&f, w, h)
				if free.W < 0.3*float32(w) || free.H < 0.3*float32(h) {
					t.Errorf("%s, %d players, %dx%d: free part %+v, too small to frame anything", scene, players, w, h, free)
				}
				pts, structure := l.Subject()
				outside := func(frameIn render.Rect) int {
					v := render.FitView(f.Follow, pts, structure, w, h, frameIn)
					n := 0
					for _, p := range pts {
						x, y, ok := v.Project(f.Follow, p, w, h, frameIn)
						if !ok || x < free.X || x > free.X+free.W || y < free.Y || y > free.Y+free.H {
							n++
						}
					}
					return n
				}
				whole := outside(render.Rect{W: float32(w), H: float32(h)})
				t.Logf("%s, %d players, %dx%d: free %+v; framed in the whole window, %d of %d points outside it", scene, players, w, h, free, whole, len(pts))
				if w == 1280 && whole == 0 {
					t.Errorf("%s, %d players: framed in the whole window, the subject is in the free part too: the test tells nothing", scene, players)
				}
				if out := outside(free); out > 0 {
					v := render.FitView(f.Follow, pts, structure, w, h, free)
					t.Errorf("%s, %d players, %dx%d: %d of the subject's %d points outside the free part %+v (view %+v)", scene, players, w, h, out, len(pts), free, v)
				}
			}
		}
	}
}
