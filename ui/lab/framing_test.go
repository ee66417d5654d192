package lab

import (
	"testing"

	"github.com/cubelab/cube/session"
)

// TestScenesWithAStructureAreFramed: the stack, the pyramid and the drop
// scene's block give the camera their bodies to frame; the arena and the
// cubes scene, bodies on the ground, keep the default view.
func TestScenesWithAStructureAreFramed(t *testing.T) {
	for _, c := range []struct {
		scene  string
		framed bool
	}{{"arena", false}, {"cubes", false}, {"pyramid", true}, {"stack", true}, {"drop", true}} {
		cfg := session.DefaultConfig()
		cfg.Scene = c.scene
		l, err := New(cfg, false, 0)
		if err != nil {
			t.Fatal(err)
		}
		pts := l.FramePoints()
		if got := len(pts) > 0; got != c.framed {
			t.Errorf("%s: %d points to frame, want framed %v", c.scene, len(pts), c.framed)
		}
		var top float32
		for _, p := range pts {
			top = max(top, p[1])
		}
		if c.framed && top <= structureHeight {
			t.Errorf("%s: the points reach %v m, under the structure's height", c.scene, top)
		}
	}
}
