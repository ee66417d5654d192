package physics

import "slices"

// stepCtx is the scratch of one step, kept in the World between steps only
// so that a step does not allocate (Box2D keeps the same in its step
// context). Nothing in it carries meaning from one step to the next, and
// none of it is saved, hashed or compared: a step writes each buffer
// before it reads it. Two things run on: markList's epoch, so that old
// marks never match (the marks serve ApplyTrace too, which stands in for a
// step), and the stage list with the shape it was built for, which a step
// of the same shape runs again instead of building it anew (buildStages):
// the list is a function of the shape alone. What persists lives in World.
type stepCtx struct {
	sidx     []int32        // solver index of each body this step, -1 when not active (sized by AddBox)
	active   []int32        // active bodies this step, by index: solver body k is body active[k]
	pairs    pairBuf        // the pairs the broad phase found (broadphase.go)
	sb       []solverBody   // the active bodies' per-step data, by solver index
	vel      []bodyVel      // velocities of the active bodies, by solver index
	cons     []constraint   // this step's contacts prepared for the solver, in key order (prepare.go)
	pts      []cpoint       // their points, cons[k].first on
	info     []pointInfo    // by point, as pts
	exact    []exactCon     // the contacts whose separation is recomputed in every substep
	exactPts []exactPoint   // their points
	redo     []redo         // the pairs whose contacts are made again in every substep
	redoOld  []ContactState // redoPair's scratch
	redoVimp []float64
	cache    []ContactState // the next contact cache, swapped with st.Contacts
	uf       []int32        // union-find parents, by solver index
	minRest  []uint32       // per island root
	graph    colouring      // the contacts' colours (graph.go)
	stages   []stage        // the solver's stage list (stages.go)
	pass     []stage        // one pass over the colours, copied into stages
	shape    stageShape     // what stages was built for (buildStages)
	many     bool           // some stage of stages has more than one block: worth waking the workers
	items    int64          // the items of all stages, for WorkerItems
	redoHits int            // redo pairs that found contacts in a substep (tests)
	own      manifolds      // collide's pair on one worker: boxBox writes what collide reads
	gpts     [16]cpt        // ground's points: it writes each before it reads it

	// Partial steps (partial.go).
	part     Set    // the followed step's set, static bodies left out
	mask     []bool // when not nil, activate takes only these bodies
	lite     bool   // activate gives the awake bodies outside mask their bounds only (pairOnly)
	mark     []uint32
	epoch    uint32  // mark[i] == epoch: body i is marked (markList)
	actBuf   []int32 // endFollow's lists for the trace it records
	extraBuf []int32
	linkBuf  []uint64
}

// reserve sizes the scratch for n bodies (see World.reserve).
func (c *stepCtx) reserve(n int) {
	c.active = slices.Grow(c.active[:0], n)
	c.sb = slices.Grow(c.sb[:0], n)
	c.vel = slices.Grow(c.vel[:0], n)
	c.uf = slices.Grow(c.uf[:0], n)
	c.minRest = slices.Grow(c.minRest[:0], n)
	c.cons = slices.Grow(c.cons[:0], 3*n)
	c.pts = slices.Grow(c.pts[:0], 12*n)
	c.info = slices.Grow(c.info[:0], 12*n)
	c.cache = slices.Grow(c.cache[:0], 12*n)
	c.exact = slices.Grow(c.exact[:0], n)
	c.exactPts = slices.Grow(c.exactPts[:0], 4*n)
	c.redo = slices.Grow(c.redo[:0], n/2+1)
	c.redoOld = slices.Grow(c.redoOld[:0], 8)
	c.redoVimp = slices.Grow(c.redoVimp[:0], 8)
	c.pairs.list = slices.Grow(c.pairs.list[:0], 4*n)
	c.pairs.tmp = slices.Grow(c.pairs.tmp[:0], 4*n)
	c.pairs.act = slices.Grow(c.pairs.act[:0], n)
	c.pairs.count = slices.Grow(c.pairs.count[:0], n+1)
	c.graph.bits = slices.Grow(c.graph.bits[:0], n)
	c.graph.of = slices.Grow(c.graph.of[:0], 3*n)
	c.graph.list = slices.Grow(c.graph.list[:0], 3*n)
}
