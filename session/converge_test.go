package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/cubelab/cube/netcode/tick"
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

// maxRepairTicks bounds the server ticks from a repair's start to its
// being taken, on every preset: 30 s, the time after which the server
// gives up on a repair still asked for and starts another
// (server.staleTransfer, tick.RingSize-128: the client can replay from a
// repair that old), its progress lost.
const maxRepairTicks = tick.RingSize - 128

// playFor returns the seconds of play of a case on preset: 3, or four
// round trips on the slow presets (8 s on outage), so that every run has
// corrections in flight when the drain begins.
func playFor(t *testing.T, preset string) float64 {
	cfg := presetConfig(t, preset)
	return max(3, 8*cfg.Conditions.Latency.Seconds())
}

// converge runs c with a server nudge every second (server events each
// client must take from the server) and checks that it ends in sync
// within the drain, with its drain reported, no repair abandoned, every
// repair taken within maxRepairTicks or superseded, and none left
// unaccounted; it returns the drain.
func converge(t *testing.T, c convergeCase) (drain float64, repair uint32) {
	t.Helper()
	seconds := playFor(t, c.preset)
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
	if tc := &sum.TransferCost; tc.Abandoned != 0 || tc.MaxTicks > maxRepairTicks {
		t.Errorf("%v: %d repairs abandoned; the longest took %d ticks, want at most %d", c, tc.Abandoned, tc.MaxTicks, maxRepairTicks)
	}
	if tc := &sum.TransferCost; tc.Started != tc.Taken+tc.Superseded {
		t.Errorf("%v: %d repairs started, %d taken, %d superseded: the server was never told of the rest", c, tc.Started, tc.Taken, tc.Superseded)
	}
	return sum.DrainSeconds, sum.TransferCost.MaxTicks
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
// to outage, with a server nudge every second: every run ends in sync
// within its drain (84 runs).
func TestConvergenceMatrix(t *testing.T) {
	convergeAll(t, matrix([]string{"arena", "pyramid", "stack"}, 0))
}

// TestConvergenceMatrixHeavy: the same for the 901 cubes and the drop of
// 1000 boxes (56 runs, the longest part of the session tests: 6 minutes
// of CPU, 352 s measured, on one core; 12 minutes of wall time on a
// machine loaded twice over).
func TestConvergenceMatrixHeavy(t *testing.T) {
	convergeAll(t, matrix([]string{"cubes", "drop"}, 0))
}

// convergeAll runs the cases and logs the longest drain and the longest
// repair per preset.
func convergeAll(t *testing.T, cases []convergeCase) {
	longest := map[string]float64{}
	repair := map[string]uint32{}
	for _, c := range cases {
		d, r := converge(t, c)
		longest[c.preset] = max(longest[c.preset], d)
		repair[c.preset] = max(repair[c.preset], r)
	}
	for _, p := range netsim.Presets() {
		t.Logf("%-8s longest drain %.2f s, longest repair %d ticks", p.Name, longest[p.Name], repair[p.Name])
	}
}

// TestStateSyncConvergesOnTerrible: the run of the issue that found state
// sync never back in step (cube sim -scene cubes -preset terrible -seconds
// 10 -seed 8128 -nudge-every 4): a client that could not replay the
// server's nudges diverged across the pile after each, asked for a repair
// at once after taking one, and the server started every repair over: 5
// started, none taken, NOT IN SYNC after the 60 s drain. Now it ends in
// sync, and every repair started is taken or superseded by a newer one,
// none abandoned.
func TestStateSyncConvergesOnTerrible(t *testing.T) {
	cfg := presetConfig(t, "terrible")
	cfg.Scene, cfg.Seed, cfg.NudgeEvery = "cubes", 8128, 4*time.Second
	cfg.Client.Mode = predict.StateSync
	_, sum, err := Run(cfg, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	tc := sum.TransferCost
	t.Logf("drain %.2f s; repairs started %d, taken %d, superseded %d, abandoned %d", sum.DrainSeconds, tc.Started, tc.Taken, tc.Superseded, tc.Abandoned)
	if sum.Judge() != ExitInSync {
		t.Errorf("%s after %.2f s of drain: %+v", sum.Verdict, sum.DrainSeconds, sum.Final)
	}
	// The run goes on after the client is back in step until the server
	// hears that it stopped asking (MaxTail): every repair is counted.
	if tc.Started != tc.Taken+tc.Superseded || tc.Abandoned != 0 {
		t.Errorf("repairs: %d started, %d taken, %d superseded, %d abandoned", tc.Started, tc.Taken, tc.Superseded, tc.Abandoned)
	}
}
