package physics

import "slices"

// aabb is an axis-aligned bounding box.
type aabb struct{ lo, hi Vec3 }

// boundsOf returns the bounding box of a box with half extents h, rotation
// matrix r and centre p, grown by g on every side.
func boundsOf(h Vec3, r *Mat3, p Vec3, g float64) aabb {
	e := Vec3{
		mul(abs(r[0].X), h.X) + mul(abs(r[0].Y), h.Y) + mul(abs(r[0].Z), h.Z) + g,
		mul(abs(r[1].X), h.X) + mul(abs(r[1].Y), h.Y) + mul(abs(r[1].Z), h.Z) + g,
		mul(abs(r[2].X), h.X) + mul(abs(r[2].Y), h.Y) + mul(abs(r[2].Z), h.Z) + g,
	}
	return aabb{p.Sub(e), p.Add(e)}
}

// broadphase finds the pairs of bodies whose bounds overlap by sort and
// sweep along x. Its sorted order is derived data: the key (lower x bound,
// body index) is a total order, so the order is a function of the bounds
// alone, whatever order the insertion sort starts from; Restore asks for a
// full sort only to save time.
//
// The order persists in the World between steps; the pairs a step finds
// are the step's (pairBuf, in stepCtx).
type broadphase struct {
	order  []int32 // every body, by (bounds.lo.X, index)
	resort bool    // the order may be far from sorted: sort it from scratch
}

// pairBuf is what the broad phase finds in a step, with its scratch.
type pairBuf struct {
	list  []uint64 // a<<32 | b with a < b, sorted
	act   []int32  // the active bodies in the broad phase's order
	count []int32  // scratch of sort
	tmp   []uint64 // scratch of sort
}

// less is the sort key of the broad phase: lower x bound, then index.
func (w *World) bpLess(i, j int32) bool {
	xi, xj := w.bounds[i].lo.X, w.bounds[j].lo.X
	return xi < xj || (xi == xj && i < j)
}

// maxShifts bounds the insertion sort's work, as a multiple of the body
// count: past it (a restored state far from the last one), the order is
// sorted from scratch, which gives the same order.
const maxShifts = 8

// findPairs fills w.ctx.pairs with every pair of enabled bodies whose bounds
// overlap and at least one of which is active this step (w.ctx.sidx >= 0, or
// pairOnly) and the other not static, in (a, b) order.
func (w *World) findPairs() {
	if !w.ctx.lite && len(w.ctx.active) <= fewActive {
		w.fewPairs()
		return
	}
	w.sweepPairs()
}

// sweepPairs is findPairs by sort and sweep.
func (w *World) sweepPairs() {
	bp, pb := &w.bp, &w.ctx.pairs
	o := bp.order
	shifts, limit := 0, maxShifts*len(o)
	for k := 1; k < len(o) && !bp.resort; k++ {
		x := o[k]
		m := k
		for m > 0 && w.bpLess(x, o[m-1]) {
			o[m] = o[m-1]
			m--
		}
		o[m] = x
		if shifts += k - m; shifts > limit {
			bp.resort = true
		}
	}
	if bp.resort {
		slices.SortFunc(o, func(i, j int32) int {
			if w.bpLess(i, j) {
				return -1
			}
			return 1 // keys are unique: i != j never compares equal
		})
		bp.resort = false
	}
	// The active bodies in the same order: a body that is not active
	// looks only at them.
	act := pb.act[:0]
	for _, i := range o {
		if w.ctx.sidx[i] != -1 { // active, or pairOnly
			act = append(act, i)
		}
	}
	pb.act = act
	pb.list = pb.list[:0]
	bodies := w.st.Bodies
	next := 0 // act[next] is the first active body after position k in o
	for k, i := range o {
		if next < len(act) && act[next] == i {
			next++
		}
		if bodies[i].Disabled {
			continue
		}
		bi := &w.bounds[i]
		if w.ctx.sidx[i] == -1 {
			// Not active: only active bodies may pair with it.
			for _, j := range act[next:] {
				bj := &w.bounds[j]
				if bj.lo.X > bi.hi.X {
					break
				}
				if bi.lo.Y <= bj.hi.Y && bj.lo.Y <= bi.hi.Y && bi.lo.Z <= bj.hi.Z && bj.lo.Z <= bi.hi.Z {
					pb.add(i, j)
				}
			}
			continue
		}
		for _, j := range o[k+1:] {
			bj := &w.bounds[j]
			if bj.lo.X > bi.hi.X {
				break
			}
			if bi.lo.Y <= bj.hi.Y && bj.lo.Y <= bi.hi.Y && bi.lo.Z <= bj.hi.Z && bj.lo.Z <= bi.hi.Z && !bodies[j].Disabled {
				pb.add(i, j)
			}
		}
	}
	pb.sort(len(o))
}

// fewActive is the most active bodies for which fewPairs costs less than
// the sweep: it tests each against every body (about ten instructions a
// test), where the sweep walks every body a few times (about a hundred a
// body).
const fewActive = 4

// fewPairs is findPairs for a step with at most fewActive active bodies
// (and no pairOnly one): each active body against every enabled body, the
// pairs of two active bodies once. The bounds overlap on an axis when
// neither lies beyond the other, which is the sweep's test (the later
// body in the order starts before the earlier one ends, and its lower
// bound is above the earlier one's). The pairs are sorted as the sweep's
// are, so they are the same list. The order is left as it was: the next
// sweep's insertion sort puts it right, or sorts it from scratch, which
// gives the same order.
func (w *World) fewPairs() {
	pb := &w.ctx.pairs
	pb.list = pb.list[:0]
	bodies, bounds, sidx := w.st.Bodies, w.bounds, w.ctx.sidx
	bounds = bounds[:len(bodies)]
	sidx = sidx[:len(bodies)]
	for _, a := range w.ctx.active {
		ba := &bounds[a]
		for j := range bodies {
			bj := &bounds[j]
			if bj.lo.X > ba.hi.X || ba.lo.X > bj.hi.X || bj.lo.Y > ba.hi.Y || ba.lo.Y > bj.hi.Y ||
				bj.lo.Z > ba.hi.Z || ba.lo.Z > bj.hi.Z || int32(j) == a || bodies[j].Disabled {
				continue
			}
			if sidx[j] >= 0 && int32(j) < a {
				continue // met from j's side
			}
			pb.add(a, int32(j))
		}
	}
	pb.sort(len(bodies))
}

// add records the pair of bodies i and j.
func (pb *pairBuf) add(i, j int32) {
	a, b := i, j
	if b < a {
		a, b = b, a
	}
	pb.list = append(pb.list, uint64(a)<<32|uint64(b))
}

// smallPairs is the most pairs sort puts in order by insertion alone:
// below it, that costs less than counting n bodies.
const smallPairs = 32

// sort sorts the pairs by (a, b) for n bodies: a few by insertion, more by
// a counting sort by a, then an insertion sort of each a's few pairs by b.
// The keys are unique, so both give the one sorted order.
func (pb *pairBuf) sort(n int) {
	if len(pb.list) <= smallPairs {
		s := pb.list
		for q := 1; q < len(s); q++ {
			for r := q; r > 0 && s[r] < s[r-1]; r-- {
				s[r], s[r-1] = s[r-1], s[r]
			}
		}
		return
	}
	count := pb.count[:0]
	for k := 0; k <= n; k++ {
		count = append(count, 0)
	}
	pb.count = count
	for _, p := range pb.list {
		count[p>>32+1]++
	}
	for k := 1; k <= n; k++ {
		count[k] += count[k-1]
	}
	tmp := pb.tmp[:0]
	tmp = append(tmp, pb.list...)
	pb.tmp = tmp
	for _, p := range tmp {
		a := p >> 32
		pb.list[count[a]] = p
		count[a]++
	}
	// count[a] is now the end of a's pairs; a's start is the end of a-1's.
	start := int32(0)
	for a := 0; a < n; a++ {
		end := count[a]
		s := pb.list[start:end]
		for q := 1; q < len(s); q++ {
			for r := q; r > 0 && s[r] < s[r-1]; r-- {
				s[r], s[r-1] = s[r-1], s[r]
			}
		}
		start = end
	}
}
