package physics

import (
	"cmp"
	"slices"
)

// MaxOverlap returns the deepest penetration, in metres, between two enabled
// boxes of w (at least one of them dynamic) or between an enabled dynamic box
// and the ground plane y = 0; 0 when nothing overlaps. It is computed
// exactly from the poses, independently of the contact generator: the
// penetration depth of two boxes is the least overlap of their projections
// over the 15 candidate axes (the face normals of each and the cross products
// of their edges), which for convex polyhedra is the distance the boxes must
// move apart to separate. It finds the pairs with a sort and sweep of its
// own, O(n log n) plus the pairs, in a buffer the world keeps (once it is
// large enough, it does not allocate). It is for tests, benchmarks and
// summaries, not part of the step.
func MaxOverlap(w *World) float64 {
	items := w.overlapItems[:0]
	deepest := 0.0
	for i := range w.shapes {
		b := &w.st.Bodies[i]
		if b.Disabled {
			continue
		}
		r := rotationMat(b.Rot)
		bb := boundsOf(w.shapes[i].half, &r, b.Pos, 0)
		items = append(items, overlapItem{i, bb.lo, bb.hi})
		if !w.shapes[i].static {
			deepest = max(deepest, -bb.lo.Y) // the lowest vertex is the box's lowest point
		}
	}
	slices.SortFunc(items, func(p, q overlapItem) int { return cmp.Compare(p.lo.X, q.lo.X) })
	for p := range items {
		a := &items[p]
		for q := p + 1; q < len(items) && items[q].lo.X <= a.hi.X; q++ {
			b := &items[q]
			if w.shapes[a.i].static && w.shapes[b.i].static {
				continue
			}
			if a.lo.Y > b.hi.Y || b.lo.Y > a.hi.Y || a.lo.Z > b.hi.Z || b.lo.Z > a.hi.Z {
				continue
			}
			deepest = max(deepest, w.penetration(a.i, b.i))
		}
	}
	w.overlapItems = items
	return deepest
}

// overlapItem is a body's bounds in MaxOverlap's sort and sweep.
type overlapItem struct {
	i      int
	lo, hi Vec3
}

// penetration returns how deep boxes i and j overlap (0 if they do not): the
// least overlap of their projections over the 15 SAT axes.
func (w *World) penetration(i, j int) float64 {
	ri, rj := rotationMat(w.st.Bodies[i].Rot), rotationMat(w.st.Bodies[j].Rot)
	hi, hj := w.shapes[i].half, w.shapes[j].half
	d := w.st.Bodies[j].Pos.Sub(w.st.Bodies[i].Pos)
	var axes [15]Vec3
	for k := 0; k < 3; k++ {
		axes[k], axes[3+k] = ri.Col(k), rj.Col(k)
	}
	n := 6
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			c := ri.Col(a).Cross(rj.Col(b))
			if l := c.Len(); l > 1e-9 {
				axes[n] = c.Scale(1 / l)
				n++
			}
		}
	}
	radius := func(r *Mat3, h Vec3, u Vec3) float64 {
		return mul(h.X, abs(r.Col(0).Dot(u))) + mul(h.Y, abs(r.Col(1).Dot(u))) + mul(h.Z, abs(r.Col(2).Dot(u)))
	}
	least := -1.0
	for _, u := range axes[:n] {
		o := radius(&ri, hi, u) + radius(&rj, hj, u) - abs(d.Dot(u))
		if o <= 0 {
			return 0
		}
		if least < 0 || o < least {
			least = o
		}
	}
	return least
}
