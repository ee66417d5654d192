package stepbench

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// TestRunIsRepeatable: two runs of the same scene report the same
// bodies, steps and final hash (the timings differ, the simulation does
// not), and a scene that does not exist is an error, not a panic.
func TestRunIsRepeatable(t *testing.T) {
	cfg := physics.DefaultConfig()
	a, err := Run("pyramid", cfg, game.Options{}, 40)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run("pyramid", cfg, game.Options{}, 40)
	if err != nil {
		t.Fatal(err)
	}
	if a.Steps != 40 || a.Bodies == 0 || a.Hash == "" || a.MsPerStep <= 0 {
		t.Fatalf("result %+v", a)
	}
	if a.Hash != b.Hash || a.Bodies != b.Bodies {
		t.Errorf("two runs: hash %s and %s, bodies %d and %d", a.Hash, b.Hash, a.Bodies, b.Bodies)
	}
	if _, err := Run("no such scene", cfg, game.Options{}, 40); err == nil {
		t.Error("a scene that does not exist ran")
	}
}
