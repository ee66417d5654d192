package lab

import (
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/session"
)

// TestPullOutsideTheCubesSceneSaysSo: E in the arena puts a note on the
// HUD once per press; in the cubes scene it pulls, without a note.
func TestPullOutsideTheCubesSceneSaysSo(t *testing.T) {
	for _, c := range []struct {
		scene string
		note  bool
	}{{"arena", true}, {"cubes", false}} {
		cfg := session.DefaultConfig()
		cfg.Scene = c.scene
		l, err := New(cfg, false, 0)
		if err != nil {
			t.Fatal(err)
		}
		l.SetKeys(game.Pull)
		if got := strings.Contains(l.Note, "only the cubes scene pulls"); got != c.note {
			t.Errorf("%s: note %q, want one %v", c.scene, l.Note, c.note)
		}
		l.Note = ""
		l.SetKeys(game.Pull) // held: no second note
		if l.Note != "" {
			t.Errorf("%s: E held gave a second note %q", c.scene, l.Note)
		}
	}
}
