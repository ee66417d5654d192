package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

// syncTestRun runs a short session of scene with the sync test on, and
// returns client 0's summary.
func syncTestRun(t *testing.T, scene string, n int, setup func(*Session) error) Summary {
	t.Helper()
	cfg := DefaultConfig()
	p, err := netsim.PresetByName("average")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Preset, cfg.Conditions = p.Name, p.Conditions
	cfg.Scene, cfg.Players, cfg.Client.SyncTest = scene, 2, n
	if scene == "drop" {
		cfg.Options.Bodies = 100
	}
	cfg.NudgeEvery = time.Second
	_, sum, err := Run(cfg, 3, setup)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestSyncTestFindsNothingOnEveryScene: rewinding 8 ticks after every tick
// and re-simulating them, in full and partially, gives the straight run's
// bits on every scene.
func TestSyncTestFindsNothingOnEveryScene(t *testing.T) {
	for _, scene := range game.Names() {
		sum := syncTestRun(t, scene, 8, nil)
		if sum.SyncTests < 100 || sum.Mispredictions.Rewind != 0 {
			t.Errorf("%s: %d sync tests, %d rewinds gave other bits", scene, sum.SyncTests, sum.Mispredictions.Rewind)
		}
	}
}

// TestSyncTestFindsUnsavedState: with a piece of evolving state left out
// of the saved state (physics' test-only switch), the sync test reports it
// at the first tick it tests, with both states.
func TestSyncTestFindsUnsavedState(t *testing.T) {
	var first *predict.Misprediction
	setup := func(s *Session) error {
		s.Client.World().UnsavedForTests(true)
		s.Client.KeepStates = true
		s.Client.OnMispredict = func(m *predict.Misprediction) {
			if m.Kind == predict.KindRewind && first == nil {
				c := *m
				first = &c
			}
		}
		return nil
	}
	sum := syncTestRun(t, "arena", 8, setup)
	if sum.Mispredictions.Rewind == 0 || first == nil {
		t.Fatalf("the unsaved state went unseen: %d sync tests", sum.SyncTests)
	}
	if first.Tick-first.From != 8 || first.Predicted == nil || first.Server == nil || first.Predicted.Equal(first.Server) {
		t.Fatalf("the report: span %d to %d, states %v %v", first.From, first.Tick, first.Predicted != nil, first.Server != nil)
	}
}

func TestSyncTestOutOfRange(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Client.SyncTest = predict.MaxSyncTest + 1
	if _, err := New(cfg); err == nil {
		t.Fatal("a sync test of 65 ticks was taken")
	}
}
