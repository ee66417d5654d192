package game

import (
	"fmt"
	"testing"

	"github.com/cubelab/cube/physics"
)

// benchScene measures one scripted step of a scene from the state it
// reaches after `warm` steps, restored every `span` steps so that the
// benchmark stays in that phase of the scene, on the default workers.
func benchScene(b *testing.B, name string, sleep bool, warm, span int) {
	benchSceneOn(b, name, sleep, warm, span, 0)
}

// benchSceneOn is benchScene on the given number of workers.
func benchSceneOn(b *testing.B, name string, sleep bool, warm, span, workers int) {
	cfg := physics.DefaultConfig()
	cfg.NoSleep, cfg.Workers = !sleep, workers
	w, sc, err := Build(name, cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if err := sc.RunScript(w, warm); err != nil {
		b.Fatal(err)
	}
	var s physics.State
	w.Save(&s)
	var ins []Input
	for k := 0; k < span; k++ { // size the buffers
		ins = sc.Scripted(w, ins)
		if err := sc.Step(w, ins); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%span == 0 {
			if err := w.Restore(&s); err != nil {
				b.Fatal(err)
			}
		}
		ins = sc.Scripted(w, ins)
		if err := sc.Step(w, ins); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDropSettled: the 1000-box drop pile at 4 s (sleeping off, as the
// other engines run it).
func BenchmarkDropSettled(b *testing.B) { benchScene(b, "drop", false, 256, 64) }

// BenchmarkDropFalling: the drop scene at 1 s, layers landing (sleeping off).
func BenchmarkDropFalling(b *testing.B) { benchScene(b, "drop", false, 64, 32) }

// BenchmarkPyramidAwake: the pyramid standing, sleeping off.
func BenchmarkPyramidAwake(b *testing.B) { benchScene(b, "pyramid", false, 256, 64) }

// BenchmarkCubesPulling: the cubes scene while the player pulls (sleeping on).
func BenchmarkCubesPulling(b *testing.B) { benchScene(b, "cubes", true, 960, 32) }

// BenchmarkCubesWorkers: the cubes scene while the player pulls, and the
// 1000-box drop settled, on one worker and on two: the same bits either
// way (TestWorkersGiveTheSameBits).
func BenchmarkCubesWorkers(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("pulling/workers=%d", n), func(b *testing.B) { benchSceneOn(b, "cubes", true, 960, 32, n) })
		b.Run(fmt.Sprintf("drop/workers=%d", n), func(b *testing.B) { benchSceneOn(b, "drop", false, 256, 64, n) })
	}
}

// BenchmarkHashCubes measures State.Hash of the cubes scene while the player
// pulls (tick 960: 901 bodies and about 6500 cached contacts), which client
// and server compute every tick.
func BenchmarkHashCubes(b *testing.B) {
	w, sc := MustBuild("cubes")
	if err := sc.RunScript(w, 960); err != nil {
		b.Fatal(err)
	}
	s := w.State()
	b.ReportAllocs()
	b.ResetTimer()
	var h uint64
	for i := 0; i < b.N; i++ {
		h ^= s.Hash()
	}
	_ = h
	b.ReportMetric(float64(len(s.Contacts)), "contacts")
}

// BenchmarkSaveRestoreCubes measures Save then Load of the cubes scene
// while the player pulls (tick 960), as cube bench's save_restore_us: a
// rewind to a keyframe the world saved itself.
func BenchmarkSaveRestoreCubes(b *testing.B) {
	w, sc := MustBuild("cubes")
	if err := sc.RunScript(w, 960); err != nil {
		b.Fatal(err)
	}
	var s physics.State
	w.Save(&s)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Save(&s)
		w.Load(&s)
	}
}

// BenchmarkRestoreCubes measures Restore alone (checked) of a state 32
// ticks back.
func BenchmarkRestoreCubes(b *testing.B) {
	benchRewind(b, func(w *physics.World, s *physics.State) {
		if err := w.Restore(s); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkLoadCubes measures Load alone (unchecked) of a state 32 ticks
// back: a rewind's keyframe, whose moved bodies need their derived data
// again.
func BenchmarkLoadCubes(b *testing.B) {
	benchRewind(b, (*physics.World).Load)
}

// benchRewind times rewind taking the cubes scene from tick 992 back to
// tick 960 (the state put back between runs is not timed).
func benchRewind(b *testing.B, rewind func(*physics.World, *physics.State)) {
	w, sc := MustBuild("cubes")
	if err := sc.RunScript(w, 960); err != nil {
		b.Fatal(err)
	}
	var s physics.State
	w.Save(&s)
	if err := sc.RunScript(w, 32); err != nil {
		b.Fatal(err)
	}
	var now physics.State
	w.Save(&now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rewind(w, &s)
		b.StopTimer()
		w.Load(&now)
		b.StartTimer()
	}
}

// BenchmarkStageTraceCubes: the stage trace of one step of the cubes
// scene pulling (physics.World.TraceNext), the traced step included; the
// trace's values a step. The trace file's size is what cube replay -trace
// reports.
func BenchmarkStageTraceCubes(b *testing.B) {
	w, sc := MustBuild("cubes")
	if err := sc.RunScript(w, 240); err != nil {
		b.Fatal(err)
	}
	var st physics.State
	w.Save(&st)
	var tr physics.StageTrace
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := w.Restore(&st); err != nil {
			b.Fatal(err)
		}
		w.TraceNext(&tr)
		w.Step()
	}
	items := 0
	for _, s := range tr.Stages {
		items += len(s.Items)
	}
	b.ReportMetric(float64(items), "values/trace")
	b.ReportMetric(float64(len(tr.Stages)), "stages/trace")
}

// BenchmarkStageHashesCubes: one step of the cubes scene pulling with its
// stage hashes (physics.World.HashStages, what cube's -record-stages
// costs the server a tick), against BenchmarkStageHashesCubes/off, the
// same step, restored the same way, on the same worker.
func BenchmarkStageHashesCubes(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			cfg := physics.DefaultConfig()
			cfg.Workers = 1
			w, sc, err := Build("cubes", cfg, Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			if err := sc.RunScript(w, 240); err != nil {
				b.Fatal(err)
			}
			var st physics.State
			w.Save(&st)
			w.HashStages(on)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := w.Restore(&st); err != nil {
					b.Fatal(err)
				}
				w.Step()
			}
			if h := w.StageHashes(); on {
				b.ReportMetric(float64(len(h.Hashes)), "stages")
				b.ReportMetric(float64(8*len(h.Hashes)+8+2), "record-bytes/tick")
			}
		})
	}
}
