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
// chunks (pairs of the narrow phase, the solver's stage list) claimed in any
// order by whichever worker is free; the result never depends on that
// order, since each chunk writes only its own slots and the step reads
// them back in index order (narrow.go), or runs blocks of a stage that
// write disjoint data (stages.go). The caller works
// too, as worker 0, and waits only for chunks that a helper claimed: on a
// busy machine, a helper that has not woken yet when the caller has taken
// every chunk costs nothing.

// job names the work a pool runs.
type job uint8

const (
	jobNarrow job = iota // narrow phase: chunks of pairs (narrow.go)
	jobStages            // solver: the stage list, one chunk per worker (stages.go)
)

// The pool's state word: a job's generation, its chunk count and the next
// chunk to claim, so that one compare-and-swap claims a chunk of the job
// under way and never one of a job that has ended.
const (
	chunkBits = 20
	maxChunks = 1<<chunkBits - 1
	chunkMask = maxChunks
)

// pool is a world's workers. Between jobs it holds no reference to the
// world, so that a world dropped without Close can be collected and its
// cleanup can stop the goroutines.
type pool struct {
	wake     []chan struct{} // one per helper (workers 1 to n-1), room for one wake
	finished chan struct{}   // the helper that completes a job's last chunk says so here
	stop     sync.Once

	// The job under way: written by the caller before it publishes the
	// job in state, read by a helper only after it claimed a chunk.
	w   *World // nil between jobs
	job job

	state     atomic.Uint64 // gen<<(2*chunkBits) | chunks<<chunkBits | next
	completed atomic.Int32  // chunks of the job done
	gen       uint64        // the caller's count of jobs
}

// newPool starts n-1 goroutines, for n workers in all.
func newPool(n int) *pool {
	p := &pool{wake: make([]chan struct{}, n-1), finished: make(chan struct{}, 1)}
	for k := range p.wake {
		p.wake[k] = make(chan struct{}, 1)
		//cube:allow goroutine the pool's helpers only claim chunks; every result goes to a per-item slot merged in index order, so the bits do not depend on the schedule (TestWorkersGiveTheSameBits)
		go p.loop(k+1, p.wake[k])
	}
	return p
}

// loop is the life of helper id: work at every wake, until closed.
func (p *pool) loop(id int, wake <-chan struct{}) {
	for range wake {
		if p.work(id) {
			p.finished <- struct{}{}
		}
	}
}

// claim takes the next chunk of the job under way, if one is left.
func (p *pool) claim() (c, chunks int, ok bool) {
	for {
		s := p.state.Load()
		next, n := int(s&chunkMask), int(s>>chunkBits&chunkMask)
		if next >= n {
			return 0, 0, false
		}
		if p.state.CompareAndSwap(s, s+1) {
			return next, n, true
		}
	}
}

// work claims and runs chunks as worker id until none is left, and
// reports whether it completed the job's last one.
func (p *pool) work(id int) bool {
	last := false
	for {
		c, n, ok := p.claim()
		if !ok {
			return last
		}
		p.w.runChunk(p.job, c, id)
		last = p.completed.Add(1) == int32(n)
	}
}

// run runs chunks chunks (at most maxChunks) of job j of world w on the
// pool and returns when all are done. It wakes no more helpers than there
// are chunks besides the caller's first.
func (p *pool) run(w *World, j job, chunks int) {
	if chunks == 0 {
		return
	}
	p.w, p.job = w, j
	p.completed.Store(0)
	p.gen++
	p.state.Store(p.gen<<(2*chunkBits) | uint64(chunks)<<chunkBits)
	for k := 0; k < min(len(p.wake), chunks-1); k++ {
		select {
		case p.wake[k] <- struct{}{}:
		default: // a wake is pending already
		}
	}
	if !p.work(0) {
		<-p.finished // a helper completes the last chunk
	}
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
	pool    *pool // nil until the first step on more than one worker, and after Close
	cleanup runtime.Cleanup

	scratch []workerScratch // by worker
	narrow  []narrowSlot    // by pair (narrow.go)
	chunk   int             // pairs in a chunk of the narrow phase
	sync    []stageSync     // by stage of the step's list (stages.go)
}

// reserve sizes the buffers of more than one worker for n bodies as
// World.reserve sizes the step's (4 pairs, 3 constraints a body).
func (par *parallel) reserve(n int) {
	if par.n < 2 {
		return
	}
	par.narrow = slices.Grow(par.narrow[:0], 4*n)
	par.scratch = slices.Grow(par.scratch[:0], par.n)[:par.n]
}

// workerScratch is a worker's own scratch.
type workerScratch struct {
	items int64 // bodies and contacts this worker ran in the stage list, since the world began
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
	case jobStages:
		w.runStages(id)
	}
}
