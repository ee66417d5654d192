package session

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/predict"
)

func TestNondeterminismIsFoundWhereInjected(t *testing.T) {
	for _, name := range []string{"perfect", "bad"} {
		cfg := presetConfig(t, name)
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		const every = 500
		s.Client.Perturb = InjectNondeterminism(every)
		var first *predict.Misprediction
		s.Client.OnMispredict = func(m *predict.Misprediction) {
			if first == nil {
				c := *m
				first = &c
			}
		}
		pilot := game.NewAutopilot(s.Client.Scene(), cfg.Seed)
		for s.Client.Tick() < 3000 {
			if err := s.Tick(pilot.Input(s.Client.World().Body(0))); err != nil {
				t.Fatal(err)
			}
		}
		st := s.Client.Stats
		if first == nil || st.Mispredicted[predict.KindNondeterminism] < 3 || st.Mispredicted[predict.KindInput]+st.Mispredicted[predict.KindServer] != 0 {
			t.Fatalf("%s: mispredictions %v", name, st.Mispredicted)
		}
		// The first injection is before the step of tick 500: the first
		// mismatch covers it, and with a state every tick on a perfect
		// link it is the state of tick 501.
		if first.Kind != predict.KindNondeterminism || tick.After(first.From, every) || !tick.After(first.Tick, every) {
			t.Fatalf("%s: first misprediction %+v does not cover tick %d", name, first, every)
		}
		if name == "perfect" && first.Tick != every+1 {
			t.Fatalf("perfect link: found at state %d, want %d", first.Tick, every+1)
		}
	}
}
