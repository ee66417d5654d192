package predict

import (
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/server"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
)

// modes are the switches the window can toggle (C, M, R) and the server's
// missing-input policy, one at a time.
var modes = []struct {
	name string
	set  func(*SessionConfig)
}{
	{"defaults", func(*SessionConfig) {}},
	{"no-corrections", func(c *SessionConfig) { c.Client.Corrections = false }},
	{"no-smoothing", func(c *SessionConfig) { c.Smoothing = false }},
	{"no-redundancy", func(c *SessionConfig) { c.Client.Redundancy = false }},
	{"missing-repeat", func(c *SessionConfig) { c.Missing = server.RepeatLast }},
	{"no-quiet-resync", func(c *SessionConfig) { c.Client.QuietResync = false }},
	{"no-corrections-no-redundancy", func(c *SessionConfig) { c.Client.Corrections, c.Client.Redundancy = false, false }},
}

// TestNoFalseNondeterminismInAnyMode runs every preset in every mode with
// server nudges: nondeterminism must stay 0, since nothing was injected.
// Before the client tracked whether its state was the server's, corrections
// off gave thousands here.
func TestNoFalseNondeterminismInAnyMode(t *testing.T) {
	for _, p := range netsim.Presets() {
		for _, m := range modes {
			cfg := presetConfig(t, p.Name)
			cfg.NudgeEvery = 2 * time.Second
			m.set(&cfg)
			reports := 0
			_, sum, err := Run(cfg, 20, func(s *Session) error {
				s.Client.OnMispredict = func(mp *Misprediction) {
					if mp.Kind == KindNondeterminism {
						reports++
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Mispredictions.Nondeterminism != 0 || reports != 0 {
				t.Errorf("%s, %s: nondeterminism %d without any injected", p.Name, m.name, sum.Mispredictions.Nondeterminism)
			}
			if sum.Mispredictions.Server == 0 && p.Name != "outage" {
				t.Errorf("%s, %s: the nudges were never seen", p.Name, m.name)
			}
			if cfg.Client.Corrections && !sum.Final.InSync {
				t.Errorf("%s, %s: not in sync at the end: %+v", p.Name, m.name, sum.Final)
			}
			if !cfg.Client.Corrections && sum.Mispredictions.Unverified == 0 {
				t.Errorf("%s, %s: corrections off but nothing unverified: %+v", p.Name, m.name, sum.Mispredictions)
			}
		}
	}
}

// TestInjectionFoundWithCorrectionsOff: the client was in sync when the
// first ulp was injected, so that first difference is nondeterminism even
// though the client never takes the server's state; what follows, from a
// state that is no longer the server's, is only unverified.
func TestInjectionFoundWithCorrectionsOff(t *testing.T) {
	for _, name := range []string{"perfect", "lan", "bad"} {
		cfg := presetConfig(t, name)
		cfg.Client.Corrections = false
		const every = 500
		var first *Misprediction
		_, sum, err := Run(cfg, 20, func(s *Session) error {
			s.Client.Perturb = InjectNondeterminism(every, 0)
			s.Client.OnMispredict = func(m *Misprediction) {
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
		if first == nil || first.Kind != KindNondeterminism || tick.After(first.From, every) || !tick.After(first.Tick, every) {
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

// TestReadmeExampleEndsInSync is the README's record example: no
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
