package physics

import "slices"

// The solver by island, in parallel. Contacts of different islands share
// no moving body, and every stage of the solver (integrate velocities,
// warm start, solve, integrate positions and update separations, relax,
// the extra relax passes around heavily loaded bodies (heavy.go), the
// shock pass (shock.go); redo contacts; restitution) reads and writes, for a contact, only its
// own rows and the velocities and poses of its moving bodies, and reads
// bodies that do not move this step. So running the whole substep loop
// island after island gives the same bits as running each stage over all
// contacts in key order, as long as each island keeps its contacts in key
// order and its bodies in index order: the interleaving of islands changes
// nothing. The islands here are this step's (union-find over the solver
// bodies of the constraints with two moving bodies; a contact with a side
// that does not move belongs to its moving body's island), batched into
// runs of contiguous islands that the workers claim. The one write an
// island would make outside itself, waking a sleeping box that a redo pair
// touched (two islands may touch the same box), is deferred to a pass in
// redo order after the solver.

// islands is this step's islands: island k's solver bodies are
// bodies[bodyAt[k]:bodyAt[k+1]], and likewise its constraints, exact
// contacts and redo pairs, each in increasing index order.
type islands struct {
	uf    []int32 // union-find parents, by solver body
	of    []int32 // island of each solver body
	count []int32 // scratch of group

	bodyAt, consAt, exactAt, redoAt []int32
	bodies, cons, exact, redo       []int32

	batch   []int32 // batch k is islands batch[k] to batch[k+1]
	cost    []int32 // by batch
	order   []int32 // the batches, costliest first: the order the workers claim them
	redoHit []bool  // by redo pair: it found contacts in a substep
}

// batchesPerWorker is how many batches the islands are cut into per
// worker, at most, so that a worker that finishes early finds more to do.
const batchesPerWorker = 4

// minBatchCost is the smallest cost (bodies plus four per contact) of a
// batch: below it, waking a worker costs more than it saves. Tests lower
// it (parallel.minCost) to cut the islands into more batches.
const minBatchCost = 256

// solveParallel runs the solver's substeps and restitution by island on
// the workers, and reports whether it did: on one worker it does nothing
// and the step runs the stages over all contacts itself.
func (w *World) solveParallel() bool {
	p := w.startPool()
	if p == nil {
		return false
	}
	is := &w.par.isl
	w.buildIslands(is)
	nb := len(is.batch) - 1
	if nb > 0 {
		p.run(w, jobIslands, nb)
	}
	for k := range w.ctx.redo {
		if is.redoHit[k] {
			w.wakeRedo(&w.ctx.redo[k])
		}
	}
	return true
}

// buildIslands groups this step's solver bodies, constraints, exact
// contacts and redo pairs by island, and cuts the islands into batches.
func (w *World) buildIslands(is *islands) {
	n := int32(len(w.ctx.sb))
	uf := slices.Grow(is.uf[:0], int(n))[:n]
	for k := range uf {
		uf[k] = int32(k)
	}
	is.uf = uf
	for ci := range w.ctx.cons {
		if c := &w.ctx.cons[ci]; c.s2 >= 0 {
			union(uf, c.s1, c.s2)
		}
	}
	// Islands numbered in the order of their smallest solver body: the
	// root, since union keeps the smaller root.
	of := slices.Grow(is.of[:0], int(n))[:n]
	ni := int32(0)
	for k := int32(0); k < n; k++ {
		if r := find(uf, k); r == k {
			of[k] = ni
			ni++
		} else {
			of[k] = of[r]
		}
	}
	is.of = of
	is.bodyAt, is.bodies = is.group(is.bodyAt, is.bodies, ni, int(n), func(k int) int32 { return of[k] })
	is.consAt, is.cons = is.group(is.consAt, is.cons, ni, len(w.ctx.cons), func(k int) int32 { return of[w.ctx.cons[k].s1] })
	is.exactAt, is.exact = is.group(is.exactAt, is.exact, ni, len(w.ctx.exact), func(k int) int32 { return of[w.ctx.cons[w.ctx.exact[k].ci].s1] })
	is.redoAt, is.redo = is.group(is.redoAt, is.redo, ni, len(w.ctx.redo), func(k int) int32 { return of[w.ctx.cons[w.ctx.redo[k].ci].s1] })
	is.redoHit = slices.Grow(is.redoHit[:0], len(w.ctx.redo))[:len(w.ctx.redo)]
	clear(is.redoHit)

	// Batches: contiguous islands of about total/(batchesPerWorker*n)
	// cost each, at least minBatchCost; an island costlier than that is a
	// batch of its own.
	cost := func(k int32) int {
		return int(is.bodyAt[k+1]-is.bodyAt[k]) + 4*int(is.consAt[k+1]-is.consAt[k])
	}
	total := int(n) + 4*len(w.ctx.cons)
	target := max(total/(batchesPerWorker*w.par.n), w.par.minCost)
	is.batch = append(is.batch[:0], 0)
	is.cost, is.order = is.cost[:0], is.order[:0]
	acc := 0
	for k := int32(0); k < ni; k++ {
		acc += cost(k)
		if acc >= target || k == ni-1 {
			is.order = append(is.order, int32(len(is.batch)-1))
			is.batch = append(is.batch, k+1)
			is.cost = append(is.cost, int32(acc))
			acc = 0
		}
	}
	// The costliest batches are claimed first, so that a giant island
	// starts at once and the others fill the remaining workers around it
	// (the order of the batches changes no result).
	slices.SortFunc(is.order, func(a, b int32) int {
		if ca, cb := is.cost[a], is.cost[b]; ca != cb {
			return int(cb - ca)
		}
		return int(a - b)
	})
}

// group sorts the items 0 to m-1 by island (of returns an item's island)
// by counting, keeping their order within an island, into items, with
// island k's at items[at[k]:at[k+1]]; it returns at and items, reusing
// the buffers given.
func (is *islands) group(at, items []int32, ni int32, m int, of func(k int) int32) ([]int32, []int32) {
	at = slices.Grow(at[:0], int(ni)+1)[:ni+1]
	clear(at)
	for k := 0; k < m; k++ {
		at[of(k)+1]++
	}
	for k := int32(1); k <= ni; k++ {
		at[k] += at[k-1]
	}
	// count[k] is where island k's next item goes.
	count := append(is.count[:0], at[:ni]...)
	is.count = count
	items = slices.Grow(items[:0], m)[:m]
	for k := 0; k < m; k++ {
		i := of(k)
		items[count[i]] = int32(k)
		count[i]++
	}
	return at, items
}

// solveBatch runs the solver on the islands of the c-th batch claimed
// (see islands.order), with worker scratch sc.
func (w *World) solveBatch(c int, sc *workerScratch) {
	is := &w.par.isl
	b := is.order[c]
	for k := is.batch[b]; k < is.batch[b+1]; k++ {
		w.solveIsland(k, sc)
	}
}

// solveIsland runs Step's substep loop and restitution on island k: the
// same stages, in the same order, on the island's bodies and contacts.
func (w *World) solveIsland(k int32, sc *workerScratch) {
	is := &w.par.isl
	bodies := is.bodies[is.bodyAt[k]:is.bodyAt[k+1]]
	cons := is.cons[is.consAt[k]:is.consAt[k+1]]
	exact := is.exact[is.exactAt[k]:is.exactAt[k+1]]
	redo := is.redo[is.redoAt[k]:is.redoAt[k+1]]
	bias, relax, shock := w.solveConst(true), w.solveConst(false), w.shockConst()
	for s := 0; s < w.cfg.Iterations; s++ {
		if s > 0 {
			for _, r := range redo {
				if w.redoPair(&w.ctx.redo[r], s, &sc.redoOld, &sc.redoVimp) {
					is.redoHit[r] = true
				}
			}
		}
		for _, b := range bodies {
			w.integrateVelocity(int(b))
		}
		for _, ci := range cons {
			w.warmStart1(&w.ctx.cons[ci])
		}
		for _, ci := range cons {
			w.solveContact(&w.ctx.cons[ci], &bias)
		}
		for _, b := range bodies {
			w.integratePosition(int(b))
		}
		for _, ci := range cons {
			w.updateSeparation(&w.ctx.cons[ci])
		}
		for _, e := range exact {
			w.updateExact(&w.ctx.exact[e])
		}
		for r := 0; r < relaxIterations; r++ {
			for _, ci := range cons {
				w.solveContact(&w.ctx.cons[ci], &relax)
			}
		}
		w.relaxHeavy(cons, &relax)
		for _, ci := range cons {
			w.solveContact(&w.ctx.cons[ci], &shock)
		}
	}
	for _, ci := range cons {
		w.restitute(&w.ctx.cons[ci])
	}
}
