package game

import (
	"slices"
	"testing"

	"github.com/cubelab/cube/physics"
)

// TestWorkersGiveTheSameBits steps every scene, two players on their
// scripts (the cubes scene's pull among them), and the bench scenes (a
// tower, a heavy load), on one worker and on 2, 3 and 8, and wants the
// same state hash after every step and the same state at the end.
func TestWorkersGiveTheSameBits(t *testing.T) {
	ticks := 300 // the cubes script pulls from tick 128
	if testing.Short() {
		ticks = 150
	}
	for _, name := range BenchNames() {
		o := Options{}
		if slices.Contains(Names(), name) {
			o.Players = 2
		}
		run := func(workers int) ([]uint64, *physics.World) {
			cfg := physics.DefaultConfig()
			cfg.Workers = workers
			w, sc, err := Build(name, cfg, o)
			if err != nil {
				t.Fatal(err)
			}
			var ins []Input
			hashes := make([]uint64, ticks)
			for k := range hashes {
				ins = sc.Scripted(w, ins)
				if err := sc.Step(w, ins); err != nil {
					t.Fatal(err)
				}
				hashes[k] = w.Hash()
			}
			w.Close()
			return hashes, w
		}
		want, ref := run(1)
		for _, workers := range []int{2, 3, 8} {
			got, w := run(workers)
			for k := range got {
				if got[k] != want[k] {
					t.Fatalf("%s, %d workers: tick %d hash %016x, one worker %016x", name, workers, k+1, got[k], want[k])
				}
			}
			if !w.State().Equal(ref.State()) {
				t.Fatalf("%s, %d workers: %v", name, workers, physics.Diff(w.State(), ref.State(), 3))
			}
		}
	}
}
