package session

import (
	"reflect"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

// TestPartialReplayGivesTheFullReplaysRun runs the same sessions with
// partial replays (the default) and with -full-replay: every figure of
// every client's summary, the final hashes among them, must be the same,
// but for the replay counts; and the partial runs must have re-simulated
// fewer bodies than the world holds.
func TestPartialReplayGivesTheFullReplaysRun(t *testing.T) {
	cases := []struct {
		scene, preset string
		players       int
		mode          predict.Mode
		nudge         bool
		quantize      bool
	}{
		{"cubes", "average", 2, predict.StateSync, true, false},
		{"cubes", "bad", 3, predict.InputSync, false, false},
		{"arena", "terrible", 1, predict.StateSync, true, true},
		{"pyramid", "average", 2, predict.StateSync, true, false},
		{"drop", "bad", 2, predict.InputSync, true, false},
	}
	for _, k := range cases {
		cfg := DefaultConfig()
		p, err := netsim.PresetByName(k.preset)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Preset, cfg.Conditions = p.Name, p.Conditions
		cfg.Scene, cfg.Players, cfg.Client.Mode = k.scene, k.players, k.mode
		cfg.Options.Quantize = k.quantize
		if k.scene == "drop" {
			cfg.Options.Bodies = 200
		}
		if k.nudge {
			cfg.NudgeEvery = 1500 * time.Millisecond
		}
		part, full := runBoth(t, cfg, func(c *Config, full bool) { c.Client.FullReplay = full })
		if part.Replay.Partial == 0 || part.Replay.PartialBodiesMean <= 0 {
			t.Errorf("%+v: no partial replay (%+v)", k, part.Replay)
		}
		if full.Replay.Partial != 0 {
			t.Errorf("%+v: -full-replay made %d partial replays", k, full.Replay.Partial)
		}
		if !sameButReplay(part, full) {
			t.Errorf("%+v: partial and full replays ran differently:\n%+v\n%+v", k, part, full)
		}
		t.Logf("%s %s: %d partial replays, %.1f bodies on average", k.scene, k.preset, part.Replay.Partial, part.Replay.PartialBodiesMean)
	}
}

// runBoth runs cfg for 8 s twice, set(&c, false) then set(&c, true) on
// its copy c, and returns the two summaries: a partial way and a full
// one, which must run alike but for their replay counts.
func runBoth(t *testing.T, cfg Config, set func(c *Config, full bool)) (part, full Summary) {
	t.Helper()
	var runs [2]Summary
	for i, f := range []bool{false, true} {
		c := cfg
		set(&c, f)
		_, sum, err := Run(c, 8, nil)
		if err != nil {
			t.Fatal(err)
		}
		runs[i] = sum
	}
	return runs[0], runs[1]
}

// sameButReplay reports whether a and b are equal once their replay
// counts (the run's and each player's) are set aside.
func sameButReplay(a, b Summary) bool {
	strip := func(s *Summary) {
		s.Replay = Summary{}.Replay
		for i := range s.Players {
			s.Players[i].Replay = s.Replay
		}
	}
	strip(&a)
	strip(&b)
	return reflect.DeepEqual(a, b)
}
