package physics

import "testing"

// heavyPairs returns a world, sleep off, of n heavy cubes of ratio kg each
// on a 1 kg cube, the pairs 3 m apart (one island each), stepping on the
// given number of workers.
func heavyPairs(t *testing.T, n int, ratio float64, workers int) *World {
	t.Helper()
	var defs []BoxDef
	for k := 0; k < n; k++ {
		x := float64(3 * k)
		top := unitCube(Vec3{x, 1.5, 0})
		top.Mass = ratio
		defs = append(defs, unitCube(Vec3{x, 0.5, 0}), top)
	}
	return setWorkers(valWorld(t, DefaultConfig(), defs...), workers)
}

// TestHeavyMarksOnlyLoadedBodies: the extra relax passes (heavy.go) go to
// the light box under a load at least heavyRatio times its mass, and to
// nothing under a lighter one.
func TestHeavyMarksOnlyLoadedBodies(t *testing.T) {
	for _, c := range []struct {
		ratio float64
		want  bool
	}{{1, false}, {heavyRatio / 2, false}, {heavyRatio, true}, {1000, true}} {
		w := heavyPairs(t, 1, c.ratio, 1)
		for i := 0; i < 3; i++ {
			w.Step()
		}
		got := false
		for k, i := range w.ctx.active {
			if w.ctx.sb[k].bears {
				got = true
				if i != 0 {
					t.Errorf("%g:1: body %d bears a heavy load; only the light box 0 may", c.ratio, i)
				}
			}
		}
		if got != c.want {
			t.Errorf("%g:1: light box bears a heavy load %v, want %v", c.ratio, got, c.want)
		}
	}
}

// TestHeavyWorkersGiveTheSameBits: the step with the extra passes (a
// serial stage of the stage list) on several workers gives the bits of
// the single-threaded step, and does not allocate.
func TestHeavyWorkersGiveTheSameBits(t *testing.T) {
	const steps = 200
	ref := heavyPairs(t, 3, 1000, 1)
	hashes := make([]uint64, steps)
	for k := range hashes {
		ref.Step()
		hashes[k] = ref.Hash()
	}
	w := heavyPairs(t, 3, 1000, 3)
	heavy := 0
	for k := range hashes {
		w.Step()
		for q := range w.ctx.stages {
			if w.ctx.stages[q].kind == stageHeavy {
				heavy++
				break
			}
		}
		if h := w.Hash(); h != hashes[k] {
			t.Fatalf("tick %d: hash %016x on 3 workers, %016x on one", w.Tick(), h, hashes[k])
		}
	}
	if heavy == 0 {
		t.Fatal("the heavy-load passes were never in the stage list")
	}
	if a := testing.AllocsPerRun(20, w.Step); a != 0 {
		t.Errorf("%v allocations per step, want 0", a)
	}
}

// TestRelaxHeavyListAndSpanAgree: relaxHeavy's two ways over the contacts
// near a heavy load, their list and the span scanned in every pass, give
// the same bits, with the heavy pairs among light contacts (a row of
// light cubes between them).
func TestRelaxHeavyListAndSpanAgree(t *testing.T) {
	run := func(t *testing.T) uint64 {
		var defs []BoxDef
		for k := 0; k < 3; k++ {
			x := float64(4 * k)
			top := unitCube(Vec3{x, 1.5, 0})
			top.Mass = 1000
			defs = append(defs, unitCube(Vec3{x, 0.5, 0}), top, unitCube(Vec3{x + 2, 0.5, 0}))
		}
		w := valWorld(t, DefaultConfig(), defs...)
		heavy := 0
		for k := 0; k < 120; k++ {
			w.Step()
			for ci := range w.ctx.cons {
				if w.nearHeavy(&w.ctx.cons[ci]) {
					heavy++
				}
			}
		}
		if heavy == 0 {
			t.Fatal("no contact near a heavy load: the test tests nothing")
		}
		return w.Hash()
	}
	var list, span uint64
	t.Run("list", func(t *testing.T) { list = run(t) })
	t.Run("span", func(t *testing.T) {
		heavyListMaxForTest(t, 0)
		span = run(t)
	})
	if list != span {
		t.Fatalf("hash %x with the list, %x with the span", list, span)
	}
}
