package physics

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// A world with Config.Workers above 1 steps on a pool of goroutines that
// lives with it: started by its first step, parked on a channel each
// between jobs, stopped by World.Close or, for a world dropped without
// Close, by a cleanup once the world is unreachable. A job is a number of
// chunks (pairs of the narrow phase, batches of islands) claimed in any
// order by whichever worker is free; the result never depends on that
// order, since each chunk writes only its own slots and the step reads
// them back in index order (narrow.go, islands_par.go). The caller works
// too, as worker 0.

// job names the work a pool runs.
type job uint8

const (
	jobNarrow  job = iota // narrow phase: chunks of pairs (narrow.go)
	jobIslands            // solver: batches of islands (islands_par.go)
)

// pool is a world's workers. Between jobs it holds no reference to the
// world, so that a world dropped without Close can be collected and its
// cleanup can stop the goroutines.
type pool struct {
	wake []chan struct{} // one per goroutine (workers 1 to n-1)
	done sync.WaitGroup
	stop sync.Once

	w      *World // the world of the job under way, nil between jobs
	job    job
	chunks int
	next   atomic.Int32 // next chunk to claim
}

// newPool starts n-1 goroutines, for n workers in all.
func newPool(n int) *pool {
	p := &pool{wake: make([]chan struct{}, n-1)}
	for k := range p.wake {
		p.wake[k] = make(chan struct{})
		go p.loop(k+1, p.wake[k])
	}
	return p
}

// loop is the life of worker id: a job for every wake, until closed.
func (p *pool) loop(id int, wake <-chan struct{}) {
	for range wake {
		p.work(id)
		p.done.Done()
	}
}

// work claims and runs chunks until none is left.
func (p *pool) work(id int) {
	for {
		c := int(p.next.Add(1)) - 1
		if c >= p.chunks {
			return
		}
		p.w.runChunk(p.job, c, id)
	}
}

// run runs chunks chunks of job j of world w on the pool and returns
// when all are done. It wakes no more goroutines than there are chunks
// besides the caller's first.
func (p *pool) run(w *World, j job, chunks int) {
	if chunks == 0 {
		return
	}
	p.w, p.job, p.chunks = w, j, chunks
	p.next.Store(0)
	helpers := min(len(p.wake), chunks-1)
	p.done.Add(helpers)
	for k := 0; k < helpers; k++ {
		p.wake[k] <- struct{}{}
	}
	p.work(0)
	p.done.Wait()
	p.w = nil
}

// close stops the goroutines; it may be called more than once.
func (p *pool) close() {
	p.stop.Do(func() {
		for _, c := range p.wake {
			close(c)
		}
	})
}

// parallel is what a world keeps for its workers.
type parallel struct {
	n       int   // workers, from the configuration
	minCost int   // smallest cost of a batch of islands: minBatchCost
	pool    *pool // nil until the first step on more than one worker, and after Close
	cleanup runtime.Cleanup

	scratch []workerScratch // by worker
	narrow  []narrowSlot    // by pair (narrow.go)
	isl     islands         // this step's islands (islands_par.go)
}

// reserve sizes the buffers of more than one worker for n bodies as
// World.reserve sizes the step's (4 pairs, 3 constraints a body).
func (par *parallel) reserve(n int) {
	if par.n < 2 {
		return
	}
	par.narrow = slices.Grow(par.narrow[:0], 4*n)
	is := &par.isl
	for _, b := range []*[]int32{&is.uf, &is.of, &is.count, &is.bodyAt, &is.bodies, &is.consAt, &is.exactAt, &is.redoAt, &is.exact, &is.batch, &is.cost, &is.order} {
		*b = slices.Grow((*b)[:0], n+1)
	}
	is.cons = slices.Grow(is.cons[:0], 3*n)
	is.redo = slices.Grow(is.redo[:0], n/2+1)
	is.redoHit = slices.Grow(is.redoHit[:0], n/2+1)
	par.scratch = slices.Grow(par.scratch[:0], par.n)[:par.n]
	for k := range par.scratch {
		sc := &par.scratch[k]
		sc.redoOld = slices.Grow(sc.redoOld[:0], 8)
		sc.redoRel = slices.Grow(sc.redoRel[:0], 8)
	}
}

// workerScratch is a worker's own scratch.
type workerScratch struct {
	redoOld []ContactState
	redoRel []float64
}

// startPool starts the world's workers if it has more than one and they
// are not running.
func (w *World) startPool() *pool {
	par := &w.par
	if par.pool != nil || par.n < 2 {
		return par.pool
	}
	p := newPool(par.n)
	par.pool = p
	par.cleanup = runtime.AddCleanup(w, func(p *pool) { p.close() }, p)
	if len(par.scratch) < par.n {
		par.scratch = make([]workerScratch, par.n)
	}
	return p
}

// Close stops the world's worker goroutines (Config.Workers). The world
// stays usable: its next step starts them again. A world dropped without
// Close has them stopped once the garbage collector finds it unreachable;
// Close frees them at once.
func (w *World) Close() {
	if p := w.par.pool; p != nil {
		w.par.cleanup.Stop()
		p.close()
		w.par.pool = nil
	}
}

// Workers returns the number of workers that step the world.
func (w *World) Workers() int { return w.par.n }

// runChunk runs chunk c of job j as worker id.
func (w *World) runChunk(j job, c, id int) {
	switch j {
	case jobNarrow:
		w.narrowPairs(c)
	case jobIslands:
		w.solveBatch(c, &w.par.scratch[id])
	}
}
