package game

import (
	"testing"

	"github.com/cubelab/cube/physics"
)

// BenchmarkPartialReplay32Cubes measures a partial replay of 32 steps of
// the cubes scene, rolling without pulling (steps 668 to 700 of its
// script, about 320 cubes awake), from a state where only the player's
// cube is 1 cm off: what a small correction of the player costs a client.
// BenchmarkFullReplay32Cubes is the same replay of the whole world.
func BenchmarkPartialReplay32Cubes(b *testing.B) { benchReplay32(b, true) }

// BenchmarkFullReplay32Cubes: see BenchmarkPartialReplay32Cubes.
func BenchmarkFullReplay32Cubes(b *testing.B) { benchReplay32(b, false) }

func benchReplay32(b *testing.B, partial bool) {
	w, sc, err := Build("cubes", physics.DefaultConfig(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := sc.RunScript(w, 668); err != nil {
		b.Fatal(err)
	}
	var mark, moved physics.State
	w.Save(&mark)
	traces := make([]physics.Trace, 32)
	var ins []Input
	for k := range traces {
		w.Record(&traces[k])
		ins = sc.Scripted(w, ins)
		if err := sc.Step(w, ins); err != nil {
			b.Fatal(err)
		}
	}
	want := w.Hash()
	moved.CopyFrom(&mark)
	moved.Bodies[sc.Players[0]].Pos.X += 0.01
	var set physics.Set
	run := func() {
		w.Load(&moved)
		set.Reset(w.NumBodies())
		set.AddDiff(&mark, &moved)
		w.Spread(&set, &mark)
		for k := range traces {
			ins = sc.Scripted(w, ins)
			if partial {
				if err := w.Follow(&set, &traces[k]); err != nil {
					b.Fatal(err)
				}
			}
			if err := sc.Step(w, ins); err != nil {
				b.Fatal(err)
			}
		}
	}
	run()
	if partial && w.Hash() == want {
		b.Fatal("the moved cube made no difference")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
	b.ReportMetric(float64(set.Len()), "bodies")
}
