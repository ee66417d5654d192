package lab

import (
	"testing"

	"github.com/cubelab/cube/session"
)

// TestSubjects: the stack, the pyramid and the drop scene's block are
// structures, framed with their bodies; the arena and the cubes scene,
// bodies on the ground, frame the players' cubes alone; the other players'
// cubes are part of the subject.
func TestSubjects(t *testing.T) {
	for _, c := range []struct {
		scene     string
		structure bool
	}{{"arena", false}, {"cubes", false}, {"pyramid", true}, {"stack", true}, {"drop", true}} {
		for _, players := range []int{1, 3} {
			cfg := session.DefaultConfig()
			cfg.Scene, cfg.Players = c.scene, players
			l, err := New(cfg, false, 0)
			if err != nil {
				t.Fatal(err)
			}
			pts, structure := l.Subject()
			if structure != c.structure {
				t.Errorf("%s: structure %v, want %v", c.scene, structure, c.structure)
			}
			var top float32
			for _, p := range pts {
				top = max(top, p[1])
			}
			if c.structure && top <= structureHeight {
				t.Errorf("%s: the points reach %v m, under the structure's height", c.scene, top)
			}
			if !c.structure && len(pts) != 8*players {
				t.Errorf("%s with %d players: %d points, want the corners of the players' cubes", c.scene, players, len(pts))
			}
		}
	}
}
