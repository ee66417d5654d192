package physics

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// setWorkers makes w step on n workers from its next step.
func setWorkers(w *World, n int) *World {
	w.Close()
	w.par.n = n
	return w
}

// workerCounts are the counts the tests compare with the single-threaded
// step.
var workerCounts = []int{2, 3, 8}

// pathsSeen counts, over a run, the steps that took each path of the
// stage list and of the narrow phase, so that a test can show it covered
// them.
type pathsSeen struct{ split, overflow, redo, redoHit, exact, narrow int }

// look records the paths the last step of w took.
func (p *pathsSeen) look(w *World) {
	for k := range w.ctx.stages {
		if s := &w.ctx.stages[k]; s.kind == stageSolve && s.blocks > 1 {
			p.split++ // a colour's contacts in several blocks
			break
		}
	}
	if w.ctx.graph.overflow() > 0 {
		p.overflow++
	}
	if len(w.ctx.redo) > 0 {
		p.redo++
	}
	if w.ctx.redoHits > 0 {
		p.redoHit++
	}
	if len(w.ctx.exact) > 0 {
		p.exact++
	}
	if w.par.n > 1 && len(w.ctx.pairs.list) > narrowChunk {
		p.narrow++ // the pairs found on the pool (narrowAll)
	}
}

// TestWorkersGiveTheSameBits runs every test scene on 1, 2, 3 and 8
// workers, with the engine's colours and with two colours only (most
// contacts of a pile then go to the overflow), and compares the hashes
// tick by tick.
func TestWorkersGiveTheSameBits(t *testing.T) {
	const n = 600
	var seen pathsSeen
	helped := int64(0) // bodies and contacts the helpers ran
	for _, limit := range []int{colourCount, 2} {
		for _, sc := range testScenes {
			ref := setWorkers(sc.build(), 1)
			ref.ctx.graph.limit = limit
			hashes := make([]uint64, n)
			for k := range hashes {
				if err := sc.step(ref); err != nil {
					t.Fatal(err)
				}
				hashes[k] = ref.Hash()
			}
			for _, workers := range workerCounts {
				w := setWorkers(sc.build(), workers)
				w.ctx.graph.limit = limit
				for k := range hashes {
					if err := sc.step(w); err != nil {
						t.Fatal(err)
					}
					seen.look(w)
					if h := w.Hash(); h != hashes[k] {
						t.Fatalf("%s, %d colours, %d workers: tick %d hash %016x, one worker %016x", sc.name, limit, workers, w.Tick(), h, hashes[k])
					}
				}
				if !w.State().Equal(ref.State()) {
					t.Fatalf("%s, %d colours, %d workers: %v", sc.name, limit, workers, Diff(w.State(), ref.State(), 3))
				}
				for _, n := range w.WorkerItems(nil)[1:] {
					helped += n
				}
				w.Close()
			}
		}
	}
	// The scenes must take every path of the stage list, or the test
	// shows nothing about the paths they miss.
	if seen.split == 0 || seen.overflow == 0 || seen.redo == 0 || seen.redoHit == 0 || seen.exact == 0 || seen.narrow == 0 || helped == 0 {
		t.Fatalf("paths not covered: %+v, helpers ran %d items", seen, helped)
	}
}

func TestWorkersRewindTheSameBits(t *testing.T) {
	// A rewind on more workers replays what one worker recorded: restore in
	// place into a world that ran elsewhere, and into a fresh one.
	sc := &testScenes[2]
	states := straightRun(t, sc, 500)
	for _, workers := range workerCounts {
		a := setWorkers(sc.build(), workers)
		if err := sc.run(a, 37); err != nil {
			t.Fatal(err)
		}
		for _, w := range []*World{a, setWorkers(sc.build(), workers)} {
			if err := w.Restore(&states[300]); err != nil {
				t.Fatal(err)
			}
			if err := sc.run(w, 200); err != nil {
				t.Fatal(err)
			}
			if !w.State().Equal(&states[500]) {
				t.Fatalf("%d workers: %v", workers, Diff(w.State(), &states[500], 3))
			}
			w.Close()
		}
	}
}

func TestWorkersConfig(t *testing.T) {
	for _, n := range []int{-1, MaxWorkers + 1} {
		cfg := DefaultConfig()
		cfg.Workers = n
		_, err := New(cfg)
		if !errors.Is(err, ErrBadValue) {
			t.Fatalf("Workers %d: err %v, want ErrBadValue", n, err)
		}
	}
	for _, n := range []int{0, 1, 5, MaxWorkers} {
		cfg := DefaultConfig()
		cfg.Workers = n
		w, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := n
		if n == 0 {
			want = min(runtime.NumCPU(), runtime.GOMAXPROCS(0), MaxWorkers)
		}
		if w.Workers() != want || w.Config().Workers != n {
			t.Fatalf("Workers %d: world has %d (config %d), want %d", n, w.Workers(), w.Config().Workers, want)
		}
	}
}

func TestStepDoesNotAllocateOnWorkers(t *testing.T) {
	sc := &testScenes[2]
	for _, workers := range []int{1, 2, 8} {
		w := setWorkers(sc.build(), workers)
		if err := sc.run(w, 300); err != nil { // warm: buffers at their size
			t.Fatal(err)
		}
		var s State
		w.Save(&s)
		allocs := testing.AllocsPerRun(50, func() {
			w.Load(&s)
			for k := 0; k < 4; k++ {
				w.Step()
			}
		})
		if allocs != 0 {
			t.Fatalf("%d workers: a step allocates %v times", workers, allocs/4)
		}
		w.Close()
	}
}

// waitGoroutines waits, at most 10 s, for the number of goroutines to
// fall to want or below, collecting garbage meanwhile, and returns it.
func waitGoroutines(want int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		n := runtime.NumGoroutine()
		if n <= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settledGoroutines collects garbage until the number of goroutines has
// not changed for five samples in a row (the pools of worlds that earlier
// tests dropped end when their cleanup runs), at most 10 s, and returns it.
func settledGoroutines() int {
	deadline := time.Now().Add(10 * time.Second)
	n, same := runtime.NumGoroutine(), 0
	for same < 5 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
		if m := runtime.NumGoroutine(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

func TestWorkersStop(t *testing.T) {
	base := settledGoroutines()
	// One worker: no goroutine at all.
	one := setWorkers(mustSwarm(), 1)
	one.Step()
	if n := runtime.NumGoroutine(); n > base || one.par.pool != nil {
		t.Fatalf("one worker: %d goroutines, want %d", n, base)
	}
	// Closed: the goroutines end, and the world still steps.
	w := setWorkers(mustSwarm(), 8)
	w.Step()
	if n := runtime.NumGoroutine(); n < base+7 {
		t.Fatalf("%d goroutines with 8 workers, want at least %d", n, base+7)
	}
	w.Close()
	if n := waitGoroutines(base); n > base {
		t.Fatalf("after Close: %d goroutines, want %d", n, base)
	}
	w.Step()
	w.Close()
	w.Close()
	// Dropped without Close: the cleanup ends them.
	for k := 0; k < 4; k++ {
		w := setWorkers(mustSwarm(), 8)
		w.Step()
	}
	if n := waitGoroutines(base); n > base {
		t.Fatalf("worlds dropped without Close: %d goroutines left, want %d", n, base)
	}
}
