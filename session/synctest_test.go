package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
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
// of the saved state, the sync test reports it at the first tick it tests,
// with both states. The piece is a count of the client's steps, kept by
// its Perturb hook where Save and Restore do not see it, and added to its
// cube's velocity after every step: a rewind replays with the count where
// it stands, and so differs.
func TestSyncTestFindsUnsavedState(t *testing.T) {
	var first *predict.Misprediction
	var steps uint64
	var hookErr error
	setup := func(s *Session) error {
		s.Client.Perturb = func(w *physics.World, _ uint32, body int) {
			steps++
			b := w.Body(body)
			b.Vel.X += float64(float64(steps) * 1e-12)
			if err := w.SetMotion(body, b.Pos, b.Rot, b.Vel, b.AngVel); err != nil && hookErr == nil {
				hookErr = err
			}
		}
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
	if hookErr != nil {
		t.Fatal(hookErr)
	}
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
