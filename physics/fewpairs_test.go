package physics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFewPairsIsTheSweep checks that a step with few active bodies finds
// the sweep's pairs, in the same order: worlds of boxes piled close,
// static, asleep, disabled and active, without gravity and at rest so
// that their bounds are exact (half-integers): many touch exactly, and
// some are at the same place (equal bounds, so that the sweep's order
// falls back on the index).
func TestFewPairsIsTheSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	halves := [2]float64{0.25, 0.75}
	for round := 0; round < 200; round++ {
		cfg := DefaultConfig()
		cfg.Gravity, cfg.Margin = Vec3{}, 0.5 // bounds grown by 0.25
		w, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		n := 2 + rng.IntN(40)
		for i := 0; i < n; i++ {
			d := DefaultBoxDef()
			d.Half = Vec3{halves[rng.IntN(2)], halves[rng.IntN(2)], halves[rng.IntN(2)]}
			d.Pos = Vec3{float64(rng.IntN(5)), float64(rng.IntN(5)), float64(rng.IntN(5))}
			d.Static = rng.IntN(4) == 0
			if _, err := w.AddBox(d); err != nil {
				t.Fatal(err)
			}
		}
		active := 0
		for i := range w.st.Bodies {
			b := &w.st.Bodies[i]
			switch r := rng.IntN(8); {
			case w.shapes[i].static:
			case r == 0:
				b.Disabled = true
			case r < 4 && active < fewActive:
				active++
			default:
				b.Asleep = true
			}
		}
		w.reserve()
		w.activate()
		if len(w.ctx.active) > fewActive {
			t.Fatalf("%d active bodies", len(w.ctx.active))
		}
		w.fewPairs()
		few := slices.Clone(w.ctx.pairs.list)
		w.sweepPairs()
		if !slices.Equal(few, w.ctx.pairs.list) {
			t.Fatalf("round %d: few %x, sweep %x", round, few, w.ctx.pairs.list)
		}
		found += len(few)
	}
	if found < 200 {
		t.Fatalf("only %d pairs in all: the worlds test little", found)
	}
}
