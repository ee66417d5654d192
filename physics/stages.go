package physics

import (
	"runtime"
	"slices"
	"sync/atomic"
)

// The solver's stage list. After the contacts are prepared and coloured
// (graph.go), the step lists its stages, in order, each a loop over
// blocks:
//
//	for each substep s:
//	  redo the fast pairs' contacts (s > 0)      serial, redo order
//	  integrate velocities                       bodies, index blocks
//	  warm start                                 overflow, then colours
//	  solve with the position correction         overflow, then colours
//	  integrate positions                        bodies, index blocks
//	  update separations (exact ones from poses) contacts, index blocks
//	  relax (relaxIterations times)              overflow, then colours
//	  heavy-load relax passes (heavy.go)         serial, key order
//	  shock pass (shock.go)                      serial, key order
//	restitution                                  overflow, then colours
//
// The blocks of a stage write disjoint data (a body's own slots; a
// contact's own rows and its moving bodies' velocities, no body twice in a
// colour), so they may run in any order on any worker, and the list is
// the same for every worker count: only the blocks' sizes change, which
// changes no result. One worker runs the blocks one after the other; more
// run the list together, each claiming blocks of the stage under way and
// waiting for the stage's last block before the next stage.
//
// Serial stages: the redo pairs prepare their constraints again, which
// marks bodies (carries, bears) that several pairs may share, and may wake
// a sleeping box; they are few. The heavy-load and shock passes carry a
// load down a pile in one pass only in key order (bodies added bottom up
// solve bottom up), which a colour order would break: 1000:1 loads and
// the tower of 30 rest on it (validation_test.go). Both leave alone every
// contact away from a carried body.

// stageKind is what a stage's blocks do.
type stageKind uint8

const (
	stageRedo      stageKind = iota // the redo pairs (substep sub)
	stageIntVel                     // integrate velocities, bodies
	stageWarm                       // warm start, coloured contacts
	stageSolve                      // solve with bias, coloured contacts
	stageIntPos                     // integrate positions, bodies
	stageSep                        // update separations, constraints (the exact ones from the poses)
	stageRelax                      // relax, coloured contacts
	stageHeavy                      // heavy-load passes, serial
	stageShock                      // shock pass, serial
	stageRestitute                  // restitution, coloured contacts
)

// stage is one loop of the step: items lo to hi (bodies, constraints,
// exact contacts, or for the coloured kinds positions in the colouring's
// list) in blocks of size items.
type stage struct {
	kind   stageKind
	sub    int32 // substep, for stageRedo
	lo, hi int32
	size   int32
	blocks int32
}

// stageSync is a stage's counters on more than one worker: the next block
// to claim and the blocks done, on a cache line of their own.
type stageSync struct {
	next, done atomic.Int32
	_          [56]byte
}

// Smallest blocks: below them a block costs more to claim than to run.
const (
	minBodyBlock    = 64
	minContactBlock = 16
	blocksPerWorker = 4
)

// A worker waiting for the end of a stage spins spinWait times, then
// yields. A helper that has yielded yieldWait times leaves the list to
// the others (it holds no block then, and the caller, worker 0, runs
// every block no helper claims): on a machine busier than its cores, a
// helper that the system deschedules in the middle of a block holds up
// every worker at the stage's end, and one that keeps waiting is likely
// to be descheduled again.
const (
	spinWait  = 64
	yieldWait = 1024
)

// stageConsts is what the solver's passes share, made once from the
// configuration (New).
type stageConsts struct{ bias, relax, shock solveConst }

// stageList appends stages to a list, in blocks for a number of workers.
type stageList struct {
	st      []stage
	workers int32
	pass    []stage // one pass over the coloured contacts (coloured), its kind unset
}

// add appends a stage of kind over items lo to hi, in blocks of at least
// least items (or one block on one worker); none when it has no item.
func (l *stageList) add(kind stageKind, sub, lo, hi, least int32) {
	if hi <= lo {
		return
	}
	size := hi - lo
	if l.workers > 1 {
		per := blocksPerWorker * l.workers
		size = max(least, (hi-lo+per-1)/per)
	}
	l.st = append(l.st, stage{kind: kind, sub: sub, lo: lo, hi: hi, size: size, blocks: (hi - lo + size - 1) / size})
}

// passOver lists in l.pass the stages of one pass over the coloured
// contacts g: the overflow in one block, then each colour that holds a
// contact. The step makes (3+relaxIterations) passes a substep over the
// same colours; coloured copies them.
func (l *stageList) passOver(g *colouring) {
	st := l.st
	l.st = l.pass[:0]
	l.add(0, 0, g.at[0], g.at[1], g.at[1])
	for k := 1; k <= colourCount; k++ {
		l.add(0, 0, g.at[k], g.at[k+1], minContactBlock)
	}
	l.pass, l.st = l.st, st
}

// coloured appends the stages of a pass of kind over the coloured
// contacts (passOver).
func (l *stageList) coloured(kind stageKind) {
	for _, s := range l.pass {
		s.kind = kind
		l.st = append(l.st, s)
	}
}

// stageShape is everything the stage list is a function of: the
// colours' bounds, the counts of bodies, constraints and redo pairs, the
// serial passes' switches, the workers and the substeps. The zero shape
// is no step's (a world has a worker at least).
type stageShape struct {
	at                 [colourCount + 2]int32
	bodies, cons, redo int32
	workers, substeps  int32
	bears, carries     bool
}

// buildStages lists this step's stages (see above) into w.ctx.stages,
// unless the list there is already that of this step's shape: a step like
// the last one (the same bodies awake, the same contacts in the same
// colours) runs the same list.
func (w *World) buildStages() {
	g := &w.ctx.graph
	sh := stageShape{at: g.at, bodies: int32(len(w.ctx.sb)), cons: int32(len(w.ctx.cons)), redo: int32(len(w.ctx.redo)),
		workers: int32(w.par.n), substeps: int32(w.cfg.Iterations)}
	for k := range w.ctx.sb {
		sh.carries = sh.carries || w.ctx.sb[k].carries
		sh.bears = sh.bears || w.ctx.sb[k].bears
	}
	if sh == w.ctx.shape {
		return
	}
	w.ctx.shape = sh
	l := stageList{st: w.ctx.stages[:0], workers: sh.workers, pass: w.ctx.pass}
	l.passOver(g)
	w.ctx.pass = l.pass
	nb, nc, redo := sh.bodies, sh.cons, sh.redo
	// A redo pair's constraints may carry or bear from a later substep on.
	for s := int32(0); s < sh.substeps; s++ {
		if s > 0 {
			l.add(stageRedo, s, 0, redo, redo)
		}
		l.add(stageIntVel, 0, 0, nb, minBodyBlock)
		l.coloured(stageWarm)
		l.coloured(stageSolve)
		l.add(stageIntPos, 0, 0, nb, minBodyBlock)
		l.add(stageSep, 0, 0, nc, minContactBlock)
		for r := 0; r < relaxIterations; r++ {
			l.coloured(stageRelax)
		}
		if sh.bears || redo > 0 {
			l.add(stageHeavy, 0, 0, 1, 1)
		}
		if sh.carries || redo > 0 {
			l.add(stageShock, 0, 0, 1, 1)
		}
	}
	l.coloured(stageRestitute)
	w.ctx.stages = l.st
	w.ctx.many, w.ctx.items = false, 0
	for k := range l.st {
		w.ctx.many = w.ctx.many || l.st[k].blocks > 1
		w.ctx.items += int64(l.st[k].hi - l.st[k].lo)
	}
}

// solveStages runs the solver: the stage list on the world's workers.
func (w *World) solveStages() {
	w.colour()
	w.buildStages()
	if w.strace != nil {
		w.traceAt("colours", nil)
	}
	st := w.ctx.stages
	if p := w.startPool(); p != nil && w.ctx.many && w.strace == nil {
		par := &w.par
		if cap(par.sync) < len(st) {
			par.sync = make([]stageSync, len(st)+len(st)/2)
		}
		par.sync = par.sync[:len(st)]
		for k := range par.sync {
			par.sync[k].next.Store(0)
			par.sync[k].done.Store(0)
		}
		p.run(w, jobStages, par.n)
		return
	}
	// One worker: each stage whole, its blocks one after the other.
	if w.strace != nil {
		for k := range st {
			w.runSeq(st[k : k+1])
			w.traceStage(&st[k])
		}
	} else {
		w.runSeq(st)
	}
	if len(w.par.scratch) > 0 {
		w.par.scratch[0].items += w.ctx.items
	}
}

// runStages runs the stage list as worker id, with the others: it claims
// blocks of the stage under way and, when none is left, waits until the
// stage's blocks are all done.
func (w *World) runStages(id int) {
	st, sy := w.ctx.stages, w.par.sync
	sc := &w.par.scratch[id]
	for k := range st {
		s, y := &st[k], &sy[k]
		for {
			b := y.next.Add(1) - 1
			if b >= s.blocks {
				break
			}
			w.runBlock(s, b)
			sc.items += int64(min(s.hi, s.lo+(b+1)*s.size) - (s.lo + b*s.size))
			y.done.Add(1)
		}
		for spin := 0; y.done.Load() < s.blocks; spin++ {
			if spin >= spinWait {
				if id != 0 && spin >= spinWait+yieldWait {
					return // see yieldWait
				}
				runtime.Gosched()
			}
		}
	}
}

// runBlock runs block b of stage s.
func (w *World) runBlock(s *stage, b int32) {
	one := [1]stage{*s}
	one[0].lo = s.lo + b*s.size
	one[0].hi = min(s.hi, one[0].lo+s.size)
	w.runSeq(one[:])
}

// runSeq runs the stages of st one after the other, each from its item lo
// to its item hi: the whole list on one worker (in one loop: a call a
// stage cost as much as a small stage's items), a block of a stage
// (runBlock), or a stage between two traces. A stage run whole runs its
// items in the order its blocks in turn would.
func (w *World) runSeq(st []stage) {
	k := &w.consts
	for q := range st {
		s := &st[q]
		lo, hi := s.lo, s.hi
		cons := w.ctx.cons
		list := w.ctx.graph.list
		switch s.kind {
		case stageRedo: // serial: the step's scratch is this worker's
			for r := lo; r < hi; r++ {
				if w.redoPair(&w.ctx.redo[r], int(s.sub), &w.ctx.redoOld, &w.ctx.redoVimp) {
					w.ctx.redoHits++
					w.wakeRedo(&w.ctx.redo[r])
				}
			}
		case stageIntVel:
			for i := lo; i < hi; i++ {
				w.integrateVelocity(int(i))
			}
		case stageWarm:
			for _, ci := range list[lo:hi] {
				w.warmStart1(&cons[ci])
			}
		case stageSolve:
			for _, ci := range list[lo:hi] {
				w.solveContact(&cons[ci], &k.bias)
			}
		case stageIntPos:
			for i := lo; i < hi; i++ {
				w.integratePosition(int(i))
			}
		case stageSep:
			for ci := lo; ci < hi; ci++ {
				w.updateSeparation(&cons[ci])
			}
			// The exact contacts of these constraints (in constraint
			// order) then compute their separations from the poses
			// instead.
			if ex := w.ctx.exact; len(ex) > 0 {
				e, _ := slices.BinarySearchFunc(ex, lo, func(x exactCon, ci int32) int { return int(x.ci - ci) })
				for ; e < len(ex) && ex[e].ci < hi; e++ {
					w.updateExact(&ex[e])
				}
			}
		case stageRelax:
			for _, ci := range list[lo:hi] {
				w.solveContact(&cons[ci], &k.relax)
			}
		case stageHeavy:
			w.relaxHeavy(&k.relax)
		case stageShock:
			for ci := range cons {
				w.solveContact(&cons[ci], &k.shock)
			}
		case stageRestitute:
			for _, ci := range list[lo:hi] {
				w.restitute(&cons[ci])
			}
		}
	}
}

// reserveStages sizes the stage list for a step of the configured
// substeps and every colour in use.
func (c *stepCtx) reserveStages(iterations int) {
	c.stages = slices.Grow(c.stages[:0], iterations*(8+(3+relaxIterations)*(colourCount+1)))
	c.pass = slices.Grow(c.pass[:0], colourCount+1)
	c.shape = stageShape{}
}

// SolverStats is what the solver of a world's last step did, for
// benchmarks: the colours that held a contact, the contacts in the
// overflow, the contacts in all, and the stages of its list.
type SolverStats struct {
	Colours, Overflow, Contacts, Stages int
}

// SolverStats returns what the solver of the last step did.
func (w *World) SolverStats() SolverStats {
	g := &w.ctx.graph
	return SolverStats{Colours: g.colours(), Overflow: g.overflow(), Contacts: len(w.ctx.cons), Stages: len(w.ctx.stages)}
}

// WorkerItems adds to items, by worker, the bodies and contacts each
// worker ran in the stage lists of the world's steps on more than one
// worker, and returns it: the share of the solver on each.
func (w *World) WorkerItems(items []int64) []int64 {
	for k := range w.par.scratch {
		items = append(items, w.par.scratch[k].items)
	}
	return items
}
