package physics

import "slices"

// Preparing the contacts in parallel. On more than one worker, collide
// walks the pairs in key order as on one (the cache walk, the ground
// contacts, the redo pairs, the exact contacts, the wakes) but leaves the
// arithmetic of each contact's preparation (prepareMatched) for later: it
// keeps the contact's points and the cache entries its walk found
// (matchCache), and once every pair is through, the workers prepare the
// contacts in chunks. A contact's preparation writes only its own
// constraint, points and point infos, and reads the bodies, the solver
// bodies and the previous cache, which nothing writes in between, so the
// contacts get the same bits in any order, on any worker.

// prepJob is a contact whose preparation was deferred: the arguments of
// prepareMatched, its points kept at w.ctx.cpts[first:first+count].
type prepJob struct {
	ci, first, count int32
	a, b             int32
	n                Vec3
}

// prepChunk is the number of contacts in a chunk of the parallel
// preparation: about 0.3 µs each.
const prepChunk = 64

// deferPrepare keeps the contact ci of a and b for prepareDeferred (see
// prepare).
func (w *World) deferPrepare(ci, first int32, a, b int32, n Vec3, pts []cpt) {
	end := int(first) + len(pts)
	if len(w.ctx.cpts) < end {
		w.ctx.cpts = slices.Grow(w.ctx.cpts, end-len(w.ctx.cpts))[:end]
	}
	copy(w.ctx.cpts[first:end], pts)
	w.ctx.preps = append(w.ctx.preps, prepJob{ci: ci, first: first, count: int32(len(pts)), a: a, b: b, n: n})
}

// prepareDeferred prepares the contacts deferPrepare kept, on the workers.
func (w *World) prepareDeferred(p *pool) {
	n := len(w.ctx.preps)
	if n == 0 {
		return
	}
	p.run(w, jobPrepare, (n+prepChunk-1)/prepChunk)
}

// preparePart prepares the deferred contacts of chunk c.
func (w *World) preparePart(c int) {
	lo := c * prepChunk
	hi := min(lo+prepChunk, len(w.ctx.preps))
	for _, j := range w.ctx.preps[lo:hi] {
		w.prepareMatched(&w.ctx.cons[j.ci], j.first, j.a, j.b, j.n, w.ctx.cpts[j.first:j.first+j.count], w.st.Contacts)
	}
}
