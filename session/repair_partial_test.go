package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

// TestPartialRepairsGiveTheFullRepairsRun runs the same sessions on the
// outage preset (the drop scene: the small scenes need no repair there),
// with a server nudge every second, where repairs come
// seconds after their tick and snapshots' corrections between, with
// repairs replayed partially (the default) and in full: every figure of
// every client's summary, the final hashes among them, must be the same
// but for the replay counts; and a partial repair must have re-simulated
// fewer bodies. (The cubes scene is left out: its repairs on this link
// replayed in full, 8 s with nudges, and each run takes minutes; see
// docs/netcode.md.)
func TestPartialRepairsGiveTheFullRepairsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes of outage")
	}
	cases := []struct {
		scene  string
		mode   predict.Mode
		bodies int
		seed   uint64
	}{
		{"drop", predict.StateSync, 200, 1},
		{"drop", predict.StateSync, 200, 2},
		{"drop", predict.StateSync, 400, 3},
	}
	fewer := false // a partial repair re-simulated fewer bodies
	p, err := netsim.PresetByName("outage")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cases {
		cfg := DefaultConfig()
		cfg.Preset, cfg.Conditions = p.Name, p.Conditions
		cfg.Scene, cfg.Client.Mode, cfg.Options.Bodies = k.scene, k.mode, k.bodies
		cfg.NudgeEvery, cfg.Seed = time.Second, k.seed
		part, full := runBoth(t, cfg, func(c *Config, full bool) { c.Client.FullRepairs = full })
		t.Logf("%s %v (seed %d): repairs re-simulated %d ticks, %d bodies partially (%d partial repairs); %d ticks, %d bodies in full",
			k.scene, k.mode, k.seed, part.Replay.RepairTicks, part.Replay.RepairBodies, part.Replay.PartialRepairs, full.Replay.RepairTicks, full.Replay.RepairBodies)
		if full.Replay.PartialRepairs != 0 || part.Replay.RepairTicks != full.Replay.RepairTicks || part.Replay.RepairBodies > full.Replay.RepairBodies {
			t.Errorf("%s %v: partial repairs (%d) re-simulated %d ticks and %d bodies, full ones (%d partial) %d and %d", k.scene, k.mode,
				part.Replay.PartialRepairs, part.Replay.RepairTicks, part.Replay.RepairBodies, full.Replay.PartialRepairs, full.Replay.RepairTicks, full.Replay.RepairBodies)
		}
		fewer = fewer || part.Replay.PartialRepairs > 0 && part.Replay.RepairBodies < full.Replay.RepairBodies
		if !sameButReplay(part, full) {
			t.Errorf("%s %v: partial and full repairs ran differently:\n%+v\n%+v", k.scene, k.mode, part, full)
		}
	}
	if !fewer {
		t.Error("no repair replayed partially")
	}
}
