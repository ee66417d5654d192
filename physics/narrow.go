package physics

import "slices"

// The narrow phase in parallel: on more than one worker, collide first
// finds the contacts of every broad-phase pair into a slot of its own
// (narrowAll), in chunks of narrowChunk pairs on the workers, then reads
// the slots in pair order exactly as it would have found them one after
// the other. narrow only reads the world, so the slots hold the same bits
// whichever worker fills them.

// narrowChunk is the number of pairs in a chunk of the parallel narrow
// phase: a pair takes about 0.1 to 1 µs, so a chunk is worth waking a
// worker for.
const narrowChunk = 64

// narrowSlot is what narrow found for one pair.
type narrowSlot struct {
	out manifolds
	cl  float64
	hit bool
}

// narrowAll fills w.par.narrow with narrow's result for every pair and
// returns it, or returns nil on one worker or when the pairs make one
// chunk at most: the caller, who would run that chunk itself, then finds
// each pair in turn as one worker does, with the same bits and without
// the copy through the slots.
func (w *World) narrowAll() []narrowSlot {
	n := len(w.ctx.pairs.list)
	if w.par.n < 2 || n <= narrowChunk {
		return nil
	}
	p := w.startPool()
	w.par.narrow = slices.Grow(w.par.narrow[:0], n)[:n]
	size := max(narrowChunk, (n+maxChunks-1)/maxChunks)
	w.par.chunk = size
	p.run(w, jobNarrow, (n+size-1)/size)
	return w.par.narrow
}

// narrowPairs finds the contacts of the pairs of chunk c.
func (w *World) narrowPairs(c int) {
	lo := c * w.par.chunk
	hi := min(lo+w.par.chunk, len(w.ctx.pairs.list))
	for p := lo; p < hi; p++ {
		pr := w.ctx.pairs.list[p]
		s := &w.par.narrow[p]
		s.cl, s.hit = w.narrow(int32(pr>>32), int32(uint32(pr)), &s.out)
	}
}
