package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/predict"
)

// TestInjectionFoundWithCorrectionsOff: the client was in sync when the
// first ulp was injected, so that first difference is nondeterminism even
// though the client never takes the server's state; what follows, from a
// state that is no longer the server's, is only unverified.
func TestInjectionFoundWithCorrectionsOff(t *testing.T) {
	for _, name := range []string{"perfect", "lan", "bad"} {
		cfg := presetConfig(t, name)
		cfg.Client.Corrections = false
		const every = 500
		var first *predict.Misprediction
		_, sum, err := Run(cfg, 20, func(s *Session) error {
			s.Client.Perturb = InjectNondeterminism(every)
			s.Client.OnMispredict = func(m *predict.Misprediction) {
				if first == nil {
					c := *m
					first = &c
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil || first.Kind != predict.KindNondeterminism || tick.After(first.From, every) || !tick.After(first.Tick, every) {
			t.Fatalf("%s: first misprediction %+v does not find the ulp injected at tick %d", name, first, every)
		}
		if name == "perfect" && first.Tick != every+1 {
			t.Fatalf("perfect: found at state %d, want %d", first.Tick, every+1)
		}
		if sum.Mispredictions.Unverified == 0 {
			t.Errorf("%s: no unverified states after the client drifted: %+v", name, sum.Mispredictions)
		}
	}
}

// TestReadmeExampleEndsInSync is the record example of the README and docs/determinism.md: no
// redundancy on the bad preset with nudges. Nudges stop while the link
// drains, so both ends agree at the end.
func TestReadmeExampleEndsInSync(t *testing.T) {
	cfg := presetConfig(t, "bad")
	cfg.Client.Redundancy = false
	cfg.NudgeEvery = 2 * time.Second
	s, sum, err := Run(cfg, 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.Final.InSync || sum.Final.ClientHash != sum.Final.ServerHash {
		t.Fatalf("not in sync: %+v", sum.Final)
	}
	// Nudges are scheduled every 2 s of play: 30 in 60 s, none in the
	// drain (one scheduled in the last tick may still be applied).
	if n := s.Server.Stats.Events; n < 29 || n > 31 {
		t.Fatalf("%d nudges, want 30 (none while draining)", n)
	}
}
