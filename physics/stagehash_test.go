package physics

import (
	"math"
	"testing"
)

// TestStageHashesFollowTheTrace: a world that hashes its stages steps to
// the bits of one that does not, on any worker count; its last step has
// a hash for each stage of a trace of the same step, and the trace's path;
// a step traced meanwhile keeps the hashes coming; off, there are none.
func TestStageHashesFollowTheTrace(t *testing.T) {
	want, _ := tracePile(t, 1, nil)
	plain := mustPile()
	for range 41 {
		plain.Step()
	}
	var first []uint64
	for _, n := range append([]int{1}, workerCounts...) {
		w := setWorkers(mustPile(), n)
		if w.StageHashes() != nil {
			t.Fatal("stage hashes before HashStages")
		}
		w.HashStages(true)
		for range 41 {
			w.Step()
		}
		got := w.StageHashes()
		if w.Hash() != plain.Hash() {
			t.Fatalf("%d workers: hashing the stages gives %016x, the step %016x", n, w.Hash(), plain.Hash())
		}
		if got == nil || got.Tick != 40 || got.Path != want.Path || want.Path == 0 || len(got.Hashes) != len(want.Stages) {
			t.Fatalf("%d workers: hashes %+v, want tick 40, path %016x, %d stages", n, got, want.Path, len(want.Stages))
		}
		if first == nil {
			first = append(first, got.Hashes...)
		}
		for k := range first {
			if got.Hashes[k] != first[k] {
				t.Fatalf("%d workers: stage %d (%s): %016x, on one worker %016x", n, k, want.Stages[k].Name, got.Hashes[k], first[k])
			}
		}
		var tr StageTrace
		w.TraceNext(&tr)
		w.Step()
		if h := w.StageHashes(); h == nil || h.Tick != 41 || len(h.Hashes) != len(tr.Stages) {
			t.Fatalf("%d workers: the hashes of a traced step: %+v", n, h)
		}
		w.Step()
		if h := w.StageHashes(); h == nil || h.Tick != 42 {
			t.Fatalf("%d workers: the hashes after a traced step: %+v", n, h)
		}
		w.HashStages(false)
		w.Step()
		if w.StageHashes() != nil {
			t.Fatalf("%d workers: stage hashes after HashStages(false)", n)
		}
		w.Close()
	}
}

// TestStageWritesCoverTheTrace: in traced steps of every test scene (the
// pile's bounce, the loads' heavy passes, the swarm, the grid, the
// arena), every value the trace finds changed by a stage is among those
// the stage's hash takes, so that the first stage whose hash differs is
// the first whose trace differs.
func TestStageWritesCoverTheTrace(t *testing.T) {
	scenes := map[string]func() *World{"pile": mustPile, "loads": mustLoads, "swarm": mustSwarm, "grid": mustGrid, "arena": mustArena}
	for _, name := range []string{"arena", "grid", "loads", "pile", "swarm"} {
		w := scenes[name]()
		w.HashStages(true)
		checked := 0
		for tick := range 120 {
			if tick%7 != 3 {
				w.Step()
				continue
			}
			var tr StageTrace
			var written []map[string]bool
			w.TraceNext(&tr)
			w.strace.written = func(keys []traceKey) {
				m := make(map[string]bool, len(keys))
				for _, k := range keys {
					m[k.what()+" "+traceFields[k.field]] = true
				}
				written = append(written, m)
			}
			w.Step()
			if len(written) != len(tr.Stages) {
				t.Fatalf("%s tick %d: %d stage hashes for %d stages", name, tick, len(written), len(tr.Stages))
			}
			for k, s := range tr.Stages {
				for _, it := range s.Items {
					if !written[k][it.What+" "+it.Field] {
						t.Fatalf("%s tick %d: stage %d (%s) changed %s, which its hash leaves out", name, tick, k, s.Name, it)
					}
					checked++
				}
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no value changed", name)
		}
		w.Close()
	}
}

// TestStageHashesNameTheStage: a contact's normal impulse one ulp up after
// substep 2's first coloured solve makes the stage hashes first differ at
// that stage, where the traces' diff names it.
func TestStageHashesNameTheStage(t *testing.T) {
	const at = "substep 2: solve, colour 1"
	hashes := func(tamper func(string, *World)) (*StageTrace, []uint64) {
		w := mustPile()
		defer w.Close()
		w.HashStages(true)
		for range 40 {
			w.Step()
		}
		var tr StageTrace
		w.TraceNext(&tr)
		w.strace.tamper = tamper
		w.Step()
		return &tr, append([]uint64(nil), w.StageHashes().Hashes...)
	}
	ta, a := hashes(nil)
	tb, b := hashes(func(stage string, w *World) {
		if stage == at {
			c := &w.ctx.cons[w.ctx.graph.list[w.ctx.graph.at[1]]]
			p := &w.ctx.pts[c.first]
			p.pn = math.Nextafter(p.pn, math.Inf(1))
		}
	})
	d := DiffTraces(ta, tb)
	k := 0
	for k < len(a) && a[k] == b[k] {
		k++
	}
	if d.Name != at || k != d.Stage || tb.Stages[k].Name != at {
		t.Fatalf("the hashes first differ at stage %d, the traces at %d (%s)", k, d.Stage, d.Name)
	}
}
