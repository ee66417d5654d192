package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

// convergeCase is one run of the convergence matrix.
type convergeCase struct {
	scene    string
	bodies   int // drop only: 0 for its default
	mode     predict.Mode
	quantize bool
	preset   string
	seed     uint64
}

func (c convergeCase) String() string {
	q := ""
	if c.quantize {
		q = "/quantized"
	}
	return fmt.Sprintf("%s/%s%s/%s", c.scene, c.mode, q, c.preset)
}

// converge runs c for seconds of play with a server nudge every second
// (server events each client must take from the server) and checks that
// it ends in sync within the drain, with its drain reported; it returns
// the drain.
func converge(t *testing.T, c convergeCase, seconds float64) float64 {
	t.Helper()
	cfg := presetConfig(t, c.preset)
	cfg.Scene, cfg.Options.Bodies, cfg.Options.Quantize = c.scene, c.bodies, c.quantize
	cfg.Client.Mode, cfg.Seed = c.mode, c.seed
	cfg.NudgeEvery = time.Second
	_, sum, err := Run(cfg, seconds, nil)
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	if code := sum.Judge(); code != ExitInSync || !sum.Final.InSync {
		t.Errorf("%v (seed %d): %s after %.2f s of drain (%+v); transfers started %d, taken %d",
			c, c.seed, sum.Verdict, sum.DrainSeconds, sum.Final, sum.TransferCost.Started, sum.TransferCost.Taken)
	}
	if sum.DrainSeconds <= 0 || sum.DrainSeconds > MaxDrain.Seconds() {
		t.Errorf("%v: drain_seconds %v", c, sum.DrainSeconds)
	}
	return sum.DrainSeconds
}

// matrix returns the cases of scenes: both sync modes, with and without
// quantisation, every preset, each with a seed of its own.
func matrix(scenes []string, bodies int) []convergeCase {
	var cs []convergeCase
	for _, sc := range scenes {
		for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
			for _, q := range []bool{false, true} {
				for _, p := range netsim.Presets() {
					cs = append(cs, convergeCase{scene: sc, bodies: bodies, mode: mode, quantize: q, preset: p.Name, seed: uint64(len(cs)*7 + 1)})
				}
			}
		}
	}
	return cs
}

// TestConvergenceMatrix: the arena, the pyramid and the stack, in both
// sync modes, with and without quantisation, on every preset from perfect
// to outage, each run 3 s of play with a server nudge every second: every
// run ends in sync within its drain (84 runs, about 30 s on two cores).
func TestConvergenceMatrix(t *testing.T) {
	longest := map[string]float64{}
	for _, c := range matrix([]string{"arena", "pyramid", "stack"}, 0) {
		d := converge(t, c, 3)
		longest[c.preset] = max(longest[c.preset], d)
	}
	for _, p := range netsim.Presets() {
		t.Logf("%-8s longest drain %.2f s", p.Name, longest[p.Name])
	}
}
