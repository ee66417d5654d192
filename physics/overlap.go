package physics

import (
	"cmp"
	"math"
	"slices"
)

// MaxOverlap returns the deepest penetration, in metres, between two enabled
// boxes of w (at least one of them dynamic) or between an enabled dynamic box
// and the ground plane y = 0; 0 when nothing overlaps. It is computed
// exactly from the poses, independently of the contact generator: the
// penetration depth of two boxes is the least overlap of their projections
// over the 15 candidate axes (the face normals of each and the cross products
// of their edges), which for convex polyhedra is the distance the boxes must
// move apart to separate.
//
// It is cheap enough to call every tick (a summary does, on the server's
// world and on each client's). It finds the pairs with a sort and sweep of
// its own along x, in strips along z (along x alone, each cube of a grid
// would meet its whole column), whose order it keeps from one call to the
// next (an insertion sort, O(n) while bodies move little). It computes the
// exact depth only for a pair that could be deeper than the deepest found
// so far: the least overlap of the two bounding boxes over x, y and z
// bounds the depth from above (every direction's overlap does, and the
// boxes' projections lie within their bounds'), and the axes stop at the
// first whose overlap is no deeper. Boxes that touch but do not overlap, or
// overlap by less than the deepest, cost a few comparisons; a body whose
// pose has not changed since the last call (asleep, static) keeps its
// rotation and bounds. The result is the same, bit for bit, as the 15 axes
// over every pair (the test's allPairsOverlap). Its buffers live in the
// world: once they are large enough, it does not allocate. It is not part
// of the step and changes nothing in the world's state.
func MaxOverlap(w *World) float64 {
	o := &w.overlap
	n := len(w.shapes)
	fresh := len(o.items) != n
	if fresh {
		o.items = slices.Grow(o.items[:0], n)[:n]
		for i := range o.items {
			o.items[i].i = int32(i)
		}
		o.poses = slices.Grow(o.poses[:0], n)[:n]
		for i := range o.poses {
			o.poses[i].valid = false
		}
	}
	deepest := 0.0
	for k := range o.items {
		it := &o.items[k]
		b := &w.st.Bodies[it.i]
		it.off, it.static = b.Disabled, w.shapes[it.i].static
		if it.off {
			continue
		}
		p := &o.poses[it.i]
		if !p.valid || p.pos != b.Pos || p.q != b.Rot || p.half != w.shapes[it.i].half {
			// A body that has not moved (asleep, static) keeps its rotation
			// and bounds from the last call.
			p.valid, p.pos, p.q, p.half = true, b.Pos, b.Rot, w.shapes[it.i].half
			p.rot = rotationMat(b.Rot)
			bb := boundsOf(p.half, &p.rot, b.Pos, 0)
			p.lo, p.hi = bb.lo, bb.hi
		}
		it.lo, it.hi = p.lo, p.hi
		if !it.static {
			deepest = max(deepest, -it.lo.Y) // the lowest vertex is the box's lowest point
		}
	}
	// The deepest pair of the last call is likely deep again: starting
	// from its depth, the bounds rule out more pairs.
	if a, b := int(o.last[0]), int(o.last[1]); a != b && !fresh && o.pair(w, a, b) {
		deepest = max(deepest, w.penetration(a, b, deepest))
	}
	items := o.items
	o.strips(items)
	if fresh || !insertionSort(items) {
		slices.SortFunc(items, func(p, q overlapItem) int {
			return cmp.Or(cmp.Compare(p.strip, q.strip), cmp.Compare(p.lo.X, q.lo.X))
		})
	}
	// The large bodies first, each against every other; then each strip
	// swept along x, within itself and against the next strip.
	n = len(items)
	for n > 0 && items[n-1].off {
		n--
	}
	small := 0
	for small < n && items[small].strip == largeStrip {
		small++
	}
	for p := 0; p < small; p++ {
		for q := p + 1; q < n; q++ {
			o.try(w, &items[p], &items[q], &deepest)
		}
	}
	next, from := small, small // the next strip's start, and where its sweep starts
	for p := small; p < n; p++ {
		a := &items[p]
		if p == next {
			for next = p; next < n && items[next].strip == a.strip; next++ {
			}
			from = next
		}
		for q := p + 1; q < next && items[q].lo.X <= a.hi.X; q++ {
			o.try(w, a, &items[q], &deepest)
		}
		if next == n || items[next].strip != a.strip+1 {
			continue
		}
		for from < n && items[from].strip == a.strip+1 && items[from].lo.X < a.lo.X-o.wide {
			from++
		}
		for q := from; q < n && items[q].strip == a.strip+1 && items[q].lo.X <= a.hi.X; q++ {
			if items[q].hi.X >= a.lo.X {
				o.try(w, a, &items[q], &deepest)
			}
		}
	}
	return deepest
}

// Strips of the items: the large bodies' first, the disabled ones' last.
const (
	largeStrip = math.MinInt32
	offStrip   = math.MaxInt32
)

// strips puts each item in its strip along z: one as wide as twice the
// bodies' mean depth along z (bounds), so that a body no deeper than that
// overlaps only bodies in its strip (that of its lower z bound) and the
// two beside it; deeper ones (walls, the player's cube among small ones)
// are large and meet every other. It notes the widest small body along x,
// which bounds how far back the sweep of the next strip starts.
func (o *overlapBuf) strips(items []overlapItem) {
	sum, count := 0.0, 0
	for k := range items {
		if it := &items[k]; !it.off {
			sum += it.hi.Z - it.lo.Z
			count++
		}
	}
	o.stripW = 2 * sum / float64(max(count, 1))
	o.wide = 0
	for k := range items {
		it := &items[k]
		z := it.lo.Z / o.stripW
		switch {
		case it.off:
			it.strip = offStrip
		case it.hi.Z-it.lo.Z > o.stripW || !(z > -1e9 && z < 1e9):
			it.strip = largeStrip
		default:
			it.strip = int32(math.Floor(z))
			o.wide = max(o.wide, it.hi.X-it.lo.X)
		}
	}
}

// try measures the pair of items a and b into deepest if their bounds
// overlap by more than it.
func (o *overlapBuf) try(w *World, a, b *overlapItem, deepest *float64) {
	if a.lo.X > b.hi.X || b.lo.X > a.hi.X || a.lo.Y > b.hi.Y || b.lo.Y > a.hi.Y || a.lo.Z > b.hi.Z || b.lo.Z > a.hi.Z {
		return
	}
	// The bounds' overlap bounds the depth; the margin keeps a pair whose
	// exact depth could round above it.
	if boundsOverlap(a, b)+boundMargin <= *deepest || a.static && b.static {
		return
	}
	if d := w.penetration(int(a.i), int(b.i), *deepest); d > *deepest {
		*deepest, o.last = d, [2]int32{a.i, b.i}
	}
}

// overlapBuf holds MaxOverlap's buffers between calls: the sweep's items
// in their last order, and each body's pose with the rotation and bounds
// computed from it.
type overlapBuf struct {
	items []overlapItem
	poses []overlapPose // by body index
	last  [2]int32      // the deepest pair of the last call

	stripW, wide float64 // the strips' width along z, the widest small body along x
}

// pair reports whether bodies a and b are a pair MaxOverlap measures:
// both enabled, at least one dynamic.
func (o *overlapBuf) pair(w *World, a, b int) bool {
	return !w.st.Bodies[a].Disabled && !w.st.Bodies[b].Disabled && !(w.shapes[a].static && w.shapes[b].static)
}

// overlapItem is a body's bounds in MaxOverlap's sort and sweep.
type overlapItem struct {
	i           int32
	strip       int32 // along z; largeStrip, offStrip
	off, static bool  // off: disabled, out of the sweep
	lo, hi      Vec3
}

// overlapPose is the pose of a body when MaxOverlap last saw it, with its
// rotation matrix and bounds.
type overlapPose struct {
	valid     bool
	pos, half Vec3
	q         Quat
	rot       Mat3
	lo, hi    Vec3
}

// boundsOverlap returns the least overlap of the bounds of a and b over x,
// y and z, given that they overlap.
func boundsOverlap(a, b *overlapItem) float64 {
	o := span(a.hi.X, b.hi.X, a.lo.X, b.lo.X)
	if y := span(a.hi.Y, b.hi.Y, a.lo.Y, b.lo.Y); y < o {
		o = y
	}
	if z := span(a.hi.Z, b.hi.Z, a.lo.Z, b.lo.Z); z < o {
		o = z
	}
	return o
}

// span returns the length of the overlap of [lo1, hi1] and [lo2, hi2].
func span(hi1, hi2, lo1, lo2 float64) float64 {
	if hi2 < hi1 {
		hi1 = hi2
	}
	if lo2 > lo1 {
		lo1 = lo2
	}
	return hi1 - lo1
}

// boundMargin is how far below the deepest overlap found a pair's bound
// must be for MaxOverlap to skip it, m: far above the rounding of the depth
// and the bounds (1e-14 m at 100 m from the origin), far below anything
// measured.
const boundMargin = 1e-9

// insertionSort sorts items by their lower x bound, starting from the
// order of the last call, and reports false (leaving them in some order)
// when that order was too far from sorted for it to be cheap.
func insertionSort(items []overlapItem) bool {
	shifts, limit := 0, maxShifts*len(items)
	for k := 1; k < len(items); k++ {
		x := items[k]
		m := k
		for m > 0 && (x.strip < items[m-1].strip || x.strip == items[m-1].strip && x.lo.X < items[m-1].lo.X) {
			items[m] = items[m-1]
			m--
		}
		items[m] = x
		if shifts += k - m; shifts > limit {
			return false
		}
	}
	return true
}

// penetration returns how deep boxes i and j overlap, or 0 if they do not; any figure no greater than floor when they overlap by no more
// than floor (MaxOverlap then has no use for the exact figure). The depth
// is the least overlap of their projections over the 15 SAT axes: the face
// normals first, the edge cross products only if no face axis settled it.
func (w *World) penetration(i, j int, floor float64) float64 {
	ri, rj := &w.overlap.poses[i].rot, &w.overlap.poses[j].rot
	hi, hj := w.shapes[i].half, w.shapes[j].half
	d := w.st.Bodies[j].Pos.Sub(w.st.Bodies[i].Pos)
	radius := func(r *Mat3, h Vec3, u Vec3) float64 {
		return mul(h.X, abs(r.Col(0).Dot(u))) + mul(h.Y, abs(r.Col(1).Dot(u))) + mul(h.Z, abs(r.Col(2).Dot(u)))
	}
	least := -1.0
	// axis folds the overlap along unit axis u into least, and reports
	// whether the pair is settled: separated, or no deeper than floor.
	axis := func(u Vec3) bool {
		o := radius(ri, hi, u) + radius(rj, hj, u) - abs(d.Dot(u))
		if o <= 0 {
			least = 0
			return true
		}
		if least < 0 || o < least {
			least = o
		}
		return least <= floor
	}
	for k := 0; k < 3; k++ {
		if axis(ri.Col(k)) || axis(rj.Col(k)) {
			return least
		}
	}
	for p := 0; p < 3; p++ {
		for q := 0; q < 3; q++ {
			c := ri.Col(p).Cross(rj.Col(q))
			if l := c.Len(); l > 1e-9 && axis(c.Scale(1/l)) {
				return least
			}
		}
	}
	return least
}
