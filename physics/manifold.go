package physics

// Contact feature ids (16 bits, the low bits of the cache key). They name the
// geometric contact so that warm starting reuses an impulse only for the same
// one:
//
//   - box on the ground: the box's vertex, 0-7 (bit 0 the sign of x, bit 1
//     of y, bit 2 of z, set when positive);
//   - face contact between two boxes: featRefB when the reference face is
//     on B, the reference face in bits 8-10 (2*axis, +1 for the negative
//     side), and in bits 0-6 the incident feature: a vertex of the incident
//     box (0-7), or 8 + 4*edge + plane for the point where incident edge
//     `edge` (0-11, or 12 + p for the part of the polygon lying on side
//     plane p after clipping) crosses side plane `plane` (0-3) of the
//     reference face;
//   - edge against edge: featEdge, the edge of A in bits 4-7 and the edge of
//     B in bits 0-3.
//
// An edge of a box is 4*axis + the sign bits of the other two axes, the
// lower axis first.
const (
	featEdge     = 1 << 15
	featRefB     = 1 << 14
	featFaceBits = 8
	featClipped  = 8
	featEnd      = 1 << 8 // edge against edge: the second point, at the far end of parallel edges
	featExt      = 1 << 7 // face contact: the incident point was clipped by the side planes moved out (faceContact)
)

// validFeature reports whether f can be a feature of a contact with B (b is
// Ground or a body).
func validFeature(b int32, f uint32) bool {
	if b == Ground {
		return f < 8
	}
	if f&featEdge != 0 {
		return f&^(featEdge|featEnd|0xff) == 0 && (f>>4)&0xf < 12 && f&0xf < 12
	}
	return f&^(featRefB|7<<featFaceBits|featExt|0x7f) == 0 && (f>>featFaceBits)&7 < 6 && f&0x7f < featClipped+16*4
}

// beats reports whether separation s along a less preferred axis is clearly
// more than best along a preferred one.
func beats(s, best, rel float64) bool { return s > best+absAxisTol+mul(rel, abs(best)) }

// box is a box as the narrow phase sees it.
type box struct {
	p Vec3
	u [3]Vec3 // axes: the columns of the rotation
	h [3]float64
}

// boxOf returns body i as a box.
func (w *World) boxOf(i int32) box {
	r := &w.rot[i]
	h := w.shapes[i].half
	return box{p: w.st.Bodies[i].Pos, u: [3]Vec3{r.Col(0), r.Col(1), r.Col(2)}, h: [3]float64{h.X, h.Y, h.Z}}
}

// cpt is a contact point found by the narrow phase.
type cpt struct {
	p       Vec3    // world point, midway between the two surfaces
	sep     float64 // separation along the normal, negative when overlapping
	feature uint32
}

// manifolds are the contacts boxBox finds for a pair: usually one, a face
// contact (or, for separated boxes whose faces do not overlap, the closest
// points of their edges) or an edge contact; two when an edge axis
// separates most: then the best face's contact comes first (its features
// are lower) and the edge contact second. The face contact's points keep a
// box that turns fast during the step from swinging a face through the
// other box past the single edge point; none of them is deeper than the
// edge axis' overlap, the boxes' penetration.
type manifolds struct {
	n    [2]Vec3 // normals, from B towards A
	pts  [2][4]cpt
	k    [2]int // points of each, in feature order
	m    int    // manifolds
	near bool   // no axis separates the boxes by more than spec
}

// boxBox finds the contacts between boxes A and B, keeping points whose
// separation is below spec.
func boxBox(A, B *box, spec, ext float64, out *manifolds) {
	out.m = 0
	n, k := boxBoxSAT(A, B, spec, ext, &out.pts[0], &out.pts[1])
	out.near = k != noContact
	if k == noContact {
		return
	}
	if k < 0 { // face then edge
		out.n[0], out.k[0] = n[0], -k>>4
		out.n[1], out.k[1] = n[1], -k&0xf
		if out.k[0] > 0 {
			out.m = 2
			return
		}
		out.n[0], out.k[0], out.pts[0] = n[1], out.k[1], out.pts[1]
		out.m = 1
		return
	}
	if k > 0 {
		out.n[0], out.k[0], out.m = n[0], k, 1
	}
}

// noContact is what boxBoxSAT returns when an axis separates the boxes by
// more than spec.
const noContact = 1 << 20

// boxBoxSAT is boxBox's work. It returns the normal and the point count of
// one contact in out, or, for a face contact followed by an edge contact,
// both normals and -(faceCount<<4 | edgeCount), the edge point in edge.
func boxBoxSAT(A, B *box, spec, ext float64, out, edge *[4]cpt) ([2]Vec3, int) {
	var none [2]Vec3
	d := B.p.Sub(A.p)
	var c, ac [3][3]float64
	var da, db [3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			c[i][j] = A.u[i].Dot(B.u[j])
			ac[i][j] = abs(c[i][j])
		}
		da[i] = d.Dot(A.u[i])
		db[i] = d.Dot(B.u[i])
	}

	// Faces of A, then of B: the axis of least overlap; strict comparisons
	// keep the lowest index among equals.
	bestA, ia := 0.0, -1
	for i := 0; i < 3; i++ {
		s := abs(da[i]) - A.h[i] - (mul(B.h[0], ac[i][0]) + mul(B.h[1], ac[i][1]) + mul(B.h[2], ac[i][2]))
		if s > spec {
			return none, noContact
		}
		if ia < 0 || s > bestA {
			bestA, ia = s, i
		}
	}
	bestB, jb := 0.0, -1
	for j := 0; j < 3; j++ {
		s := abs(db[j]) - (mul(A.h[0], ac[0][j]) + mul(A.h[1], ac[1][j]) + mul(A.h[2], ac[2][j])) - B.h[j]
		if s > spec {
			return none, noContact
		}
		if jb < 0 || s > bestB {
			bestB, jb = s, j
		}
	}
	refB, best := false, bestA
	if beats(bestB, bestA, relFaceTol) {
		refB, best = true, bestB
	}
	// Edges of A crossed with edges of B. In A's frame, A.u[i] × B.u[j] has
	// components -c[i2][j] along i1 and c[i1][j] along i2. An edge axis
	// matters only if it separates the boxes by more than spec, or more
	// than the best face's axis by the edge tolerance (beats): below the
	// smaller of the two, lim, it needs no square root, since the axis is
	// no longer than 1 and so the separation u/|axis| is at most u when u
	// is negative, and negative when u is.
	lim := min(spec, best+absAxisTol+mul(relEdgeTol, abs(best)))
	bestE, ei, ej := 0.0, -1, -1
	for i := 0; i < 3; i++ {
		i1, i2 := next3[i], next3[i+1]
		for j := 0; j < 3; j++ {
			j1, j2 := next3[j], next3[j+1]
			l2 := mul(c[i1][j], c[i1][j]) + mul(c[i2][j], c[i2][j])
			if l2 < 1e-10 {
				continue // parallel edges: the face axes cover them
			}
			dist := mul(da[i2], c[i1][j]) - mul(da[i1], c[i2][j])
			ra := mul(A.h[i1], ac[i2][j]) + mul(A.h[i2], ac[i1][j])
			rb := mul(B.h[j1], ac[i][j2]) + mul(B.h[j2], ac[i][j1])
			u := abs(dist) - ra - rb
			if (lim >= 0 && u <= 0) || (lim < 0 && u <= lim) {
				continue
			}
			s := u / sqrt(l2)
			if s > spec {
				return none, noContact
			}
			if ei < 0 || s > bestE {
				bestE, ei, ej = s, i, j
			}
		}
	}

	// The face contact: the reference face and the incident face clipped
	// by its sides. When that leaves nothing although the boxes are near,
	// they meet past the faces' borders: the contact is at the closest
	// points of the two faces' edges (unless near is false: an edge
	// contact comes with it).
	face := func(deepest float64, near bool) (Vec3, int) {
		var n Vec3
		var k int
		if refB {
			n, k = faceContact(B, A, jb, -db[jb], spec, ext, out)
			for m := 0; m < k; m++ {
				out[m].feature |= featRefB
			}
		} else {
			n, k = faceContact(A, B, ia, da[ia], spec, ext, out)
			n = n.Neg()
		}
		if k == 0 && near && best > minGap {
			var fa, fb int
			if refB {
				fb, fa = facing(B, A, jb, -db[jb])
			} else {
				fa, fb = facing(A, B, ia, da[ia])
			}
			n, k = nearEdges(A, B, fa, fb, spec, out)
		}
		for m := 0; m < k; m++ {
			out[m].sep = max(out[m].sep, deepest)
		}
		return n, k
	}
	if ei >= 0 && beats(bestE, best, relEdgeTol) {
		ne, ke := edgeContact(A, B, ei, ej, d, spec, edge)
		if ke < 0 { // the edges' closest points are past an end: a face contact
			n, k := face(best, true)
			return [2]Vec3{n}, k
		}
		// The face contact too: a box turning fast can swing a face into
		// the other box past the single edge point. No point of it is
		// deeper than the edge axis' overlap, the boxes' true penetration.
		nf, kf := face(bestE, false)
		return [2]Vec3{nf, ne}, -(kf<<4 | ke)
	}
	n, k := face(best, true)
	return [2]Vec3{n}, k
}

// facing returns the reference face of R along axis k (dr is the offset
// from R to I along it) and the face of I that faces it most, each as
// 2*axis, plus one for the negative side.
func facing(R, I *box, k int, dr float64) (int, int) {
	n := R.u[k]
	rf := 2 * k
	if dr < 0 {
		n, rf = n.Neg(), rf+1
	}
	m, best := 0, -1.0
	for a := 0; a < 3; a++ {
		if x := abs(n.Dot(I.u[a])); x > best {
			m, best = a, x
		}
	}
	inc := 2 * m
	if n.Dot(I.u[m]) > 0 {
		inc++ // I's negative side faces R
	}
	return rf, inc
}

// segment is an edge of a box: centre, unit direction, half length, id.
type segment struct {
	c  Vec3
	u  Vec3
	h  float64
	id uint32
}

// faceEdges returns the four edges of X's face f (2*axis, plus one for the
// negative side).
func faceEdges(X *box, f int) [4]segment {
	k := f / 2
	v := 0
	c := X.p.AddScaled(X.u[k], -X.h[k])
	if f&1 == 0 {
		v = 1 << k
		c = X.p.AddScaled(X.u[k], X.h[k])
	}
	var out [4]segment
	q := 0
	for _, along := range [2]int{next3[k], next3[k+1]} {
		other := 3 - k - along
		for side := 0; side < 2; side++ {
			vv := v | side<<other
			out[q] = segment{c: c.AddScaled(X.u[other], sgn(side, X.h[other])), u: X.u[along], h: X.h[along], id: edgeID(along, vv)}
			q++
		}
	}
	return out
}

// nearEdges makes the contact of two separated boxes whose facing faces,
// A's fa and B's fb, do not overlap seen along the reference face's
// normal: at the closest points of the faces' edges (two points, the ends
// of the overlap, when the closest edges are parallel), with the normal
// along the gap, from B towards A. The features name the two edges
// (featEdge, bit featEnd for the second point). It returns no points when
// the gap exceeds spec.
func nearEdges(A, B *box, fa, fb int, spec float64, out *[4]cpt) (Vec3, int) {
	ea, eb := faceEdges(A, fa), faceEdges(B, fb)
	best := -1.0
	var pa, pb [2]Vec3
	np := 0
	var id uint32
	for i := range ea {
		for j := range eb {
			qa, qb, k := closestOnSegments(&ea[i], &eb[j])
			g := qb[0].Sub(qa[0])
			if d2 := g.Dot(g); best < 0 || d2 < best {
				best, pa, pb, np = d2, qa, qb, k
				id = featEdge | ea[i].id<<4 | eb[j].id
			}
		}
	}
	gap := sqrt(best)
	if gap > spec || gap < minGap {
		return Vec3{}, 0
	}
	n := pa[0].Sub(pb[0]).Scale(1 / gap)
	for k := 0; k < np; k++ {
		out[k] = cpt{p: pa[k].Add(pb[k]).Scale(0.5), sep: gap, feature: id}
		if k == 1 {
			out[k].feature |= featEnd
		}
	}
	return n, np
}

// closestOnSegments returns the closest points of segments a and b: one
// pair, or, when they are parallel and overlap along their direction, the
// two pairs at the ends of the overlap.
func closestOnSegments(a, b *segment) ([2]Vec3, [2]Vec3, int) {
	r := a.c.Sub(b.c)
	bb, dd, e := a.u.Dot(b.u), a.u.Dot(r), b.u.Dot(r)
	den := 1 - mul(bb, bb)
	var pa, pb [2]Vec3
	if den > 1e-9 {
		s := clamp((mul(bb, e)-dd)/den, -a.h, a.h)
		t := clamp(e+mul(bb, s), -b.h, b.h)
		s = clamp(mul(bb, t)-dd, -a.h, a.h)
		pa[0], pb[0] = a.c.AddScaled(a.u, s), b.c.AddScaled(b.u, t)
		return pa, pb, 1
	}
	// Parallel: b's ends at s = -dd ± bb*b.h along a.
	lo, hi := -dd-mul(bb, b.h), -dd+mul(bb, b.h)
	if lo > hi {
		lo, hi = hi, lo
	}
	lo, hi = max(lo, -a.h), min(hi, a.h)
	k := 2
	if hi-lo < 1e-6 { // no overlap, or a point: the nearest ends
		s := clamp(-dd, -a.h, a.h)
		lo, hi, k = s, s, 1
	}
	for q, s := range [2]float64{lo, hi} {
		t := clamp(e+mul(bb, s), -b.h, b.h)
		pa[q], pb[q] = a.c.AddScaled(a.u, s), b.c.AddScaled(b.u, t)
	}
	return pa, pb, k
}

// next3 gives the two other axes of axis i: next3[i], next3[i+1].
var next3 = [5]int{1, 2, 0, 1, 2}

// edgeID names the edge of a box along axis k whose other two coordinates
// have the signs of vertex v (bits as in corner).
func edgeID(k int, v int) uint32 {
	lo, hi := next3[k], next3[k+1]
	if lo > hi {
		lo, hi = hi, lo
	}
	return uint32(4*k + (v>>lo)&1 + 2*((v>>hi)&1))
}

// edgeContact makes the single contact of the edge of A along axis i and
// the edge of B along axis j: the closest points of the two edges. It
// returns -1 points when the closest points of the two lines lie past an
// end of either edge: the edges do not cross, and the contact is a vertex or
// an edge against a face.
func edgeContact(A, B *box, i, j int, d Vec3, spec float64, out *[4]cpt) (Vec3, int) {
	l := A.u[i].Cross(B.u[j])
	l = l.Scale(1 / l.Len())
	if d.Dot(l) < 0 {
		l = l.Neg() // from A towards B
	}
	// A's edge furthest along l, B's furthest along -l.
	ca, va := A.p, 0
	for _, k := range [2]int{next3[i], next3[i+1]} {
		if A.u[k].Dot(l) >= 0 {
			ca, va = ca.AddScaled(A.u[k], A.h[k]), va|1<<k
		} else {
			ca = ca.AddScaled(A.u[k], -A.h[k])
		}
	}
	cb, vb := B.p, 0
	for _, k := range [2]int{next3[j], next3[j+1]} {
		if B.u[k].Dot(l) <= 0 {
			cb, vb = cb.AddScaled(B.u[k], B.h[k]), vb|1<<k
		} else {
			cb = cb.AddScaled(B.u[k], -B.h[k])
		}
	}
	// Closest points of the lines ca + s u and cb + t v, then clamped to
	// the edges.
	u, v := A.u[i], B.u[j]
	r := ca.Sub(cb)
	bb, dd, e := u.Dot(v), u.Dot(r), v.Dot(r)
	den := 1 - mul(bb, bb)
	if den <= 1e-12 {
		return Vec3{}, -1
	}
	s := (mul(bb, e) - dd) / den
	t := e + mul(s, bb)
	if abs(s) > A.h[i] || abs(t) > B.h[j] {
		return Vec3{}, -1
	}
	pa, pb := ca.AddScaled(u, s), cb.AddScaled(v, t)
	sep := pb.Sub(pa).Dot(l)
	if sep > spec {
		return Vec3{}, 0
	}
	out[0] = cpt{p: pa.Add(pb).Scale(0.5), sep: sep, feature: featEdge | edgeID(i, va)<<4 | edgeID(j, vb)}
	return l.Neg(), 1
}

// sgn returns h if bit is 1, -h if 0.
func sgn(bit int, h float64) float64 {
	if bit == 1 {
		return h
	}
	return -h
}
