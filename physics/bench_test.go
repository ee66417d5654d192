package physics

import (
	"fmt"
	"testing"
)

// BenchmarkStep measures one step of the arena with the driven
// cube sliding on the plane: pushed towards +Z, where nothing stands for
// 15 m, with four ground contacts. Every 128 steps it is put back. On one
// worker and on two: the cost of the pool on a step with one body.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) { benchStep(b, n) })
	}
}

// benchStep is BenchmarkStep on the given workers.
func benchStep(b *testing.B, workers int) {
	w := setWorkers(mustArena(), workers)
	defer w.Close()
	for i := 0; i < 32; i++ { // get it sliding
		if err := push(w, arenaCube, posZ); err != nil {
			b.Fatal(err)
		}
		w.Step()
	}
	var s State
	w.Save(&s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i&127 == 0 {
			if err := w.Restore(&s); err != nil { // stay in the middle of the scene (about 1 ns a step)
				b.Fatal(err)
			}
		}
		if err := push(w, arenaCube, posZ); err != nil {
			b.Fatal(err)
		}
		w.Step()
	}
}

// BenchmarkReplay1024 measures a rewind: Restore, then 1024 scripted steps.
func BenchmarkReplay1024(b *testing.B) {
	w := mustArena()
	var s State
	w.Save(&s)
	if err := runArena(w, 1024); err != nil { // size the buffers
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Restore(&s); err != nil {
			b.Fatal(err)
		}
		for k := 0; k < 1024; k++ {
			if err := push(w, arenaCube, arenaDrive(w.Tick())); err != nil {
				b.Fatal(err)
			}
			w.Step()
		}
	}
}
