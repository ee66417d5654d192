package session

import (
	"reflect"
	"testing"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

// TestPartialRepairsGiveTheFullRepairsRun runs the same sessions on the
// outage preset, where repairs come seconds after their tick, with
// repairs replayed partially (the default) and in full: every figure of
// every client's summary, the final hashes among them, must be the same
// but for the replay counts; and the partial repairs must have
// re-simulated fewer bodies.
func TestPartialRepairsGiveTheFullRepairsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes of outage")
	}
	cases := []struct {
		scene   string
		mode    predict.Mode
		seconds float64
	}{
		{"cubes", predict.StateSync, 20},
		{"pyramid", predict.StateSync, 20},
		{"cubes", predict.InputSync, 10},
	}
	p, err := netsim.PresetByName("outage")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cases {
		cfg := DefaultConfig()
		cfg.Preset, cfg.Conditions = p.Name, p.Conditions
		cfg.Scene, cfg.Client.Mode = k.scene, k.mode
		runs := [2]Summary{}
		for i, full := range []bool{false, true} {
			c := cfg
			c.Client.FullRepairs = full
			_, sum, err := Run(c, k.seconds, nil)
			if err != nil {
				t.Fatal(err)
			}
			runs[i] = sum
		}
		part, full := runs[0], runs[1]
		t.Logf("%s %v: repairs re-simulated %d ticks, %d bodies partially (%d partial repairs); %d ticks, %d bodies in full",
			k.scene, k.mode, part.Replay.RepairTicks, part.Replay.RepairBodies, part.Replay.PartialRepairs, full.Replay.RepairTicks, full.Replay.RepairBodies)
		if part.Replay.PartialRepairs == 0 || full.Replay.PartialRepairs != 0 {
			t.Errorf("%s %v: %d partial repairs, %d with -full-repairs", k.scene, k.mode, part.Replay.PartialRepairs, full.Replay.PartialRepairs)
		}
		if part.Replay.RepairTicks != full.Replay.RepairTicks || part.Replay.RepairBodies >= full.Replay.RepairBodies {
			t.Errorf("%s %v: partial repairs re-simulated %d ticks and %d bodies, full ones %d and %d", k.scene, k.mode,
				part.Replay.RepairTicks, part.Replay.RepairBodies, full.Replay.RepairTicks, full.Replay.RepairBodies)
		}
		strip := func(s *Summary) {
			s.Replay = runs[0].Replay
			for i := range s.Players {
				s.Players[i].Replay = runs[0].Replay
			}
		}
		strip(&part)
		strip(&full)
		if !reflect.DeepEqual(part, full) {
			t.Errorf("%s %v: partial and full repairs ran differently:\n%+v\n%+v", k.scene, k.mode, part, full)
		}
		if !part.Final.InSync {
			t.Errorf("%s %v: not in sync at the end", k.scene, k.mode)
		}
	}
}
