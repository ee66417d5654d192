package physics

// contact is one contact point being solved in the current step. The three
// rows (normal, two friction tangents) carry what the solver needs
// precomputed from the poses at the start of the step.
type contact struct {
	a, b    int32 // body indices; b may be Ground
	feature uint32
	n       Vec3    // normal, from b towards a
	p       Vec3    // contact point, world
	sep     float64 // signed distance along n, negative when penetrating
	mu      float64 // friction coefficient of the pair
	e       float64 // restitution of the pair
	bias    float64 // normal velocity the solver aims for, m/s
	ma, mb  bool    // whether a and b move (not the ground, not static)
	invMa   float64 // inverse masses, 0 for a body that does not move
	invMb   float64
	rows    [3]row // normal, tangent 1, tangent 2
}

// row is one direction d of a contact constraint.
type row struct {
	d      Vec3    // direction, world
	rAxd   Vec3    // rA × d
	rBxd   Vec3    // rB × d
	iA, iB Vec3    // invI_A (rA × d), invI_B (rB × d)
	m      float64 // effective mass 1 / (d·J M⁻¹ Jᵀ d)
	p      float64 // accumulated impulse along d
}

// aabb is an axis-aligned bounding box.
type aabb struct{ lo, hi Vec3 }

// overlaps reports whether a and b, grown by m, overlap.
func (a *aabb) overlaps(b *aabb, m float64) bool {
	return a.lo.X-m <= b.hi.X && b.lo.X-m <= a.hi.X &&
		a.lo.Y-m <= b.hi.Y && b.lo.Y-m <= a.hi.Y &&
		a.lo.Z-m <= b.hi.Z && b.lo.Z-m <= a.hi.Z
}

// boundsOf returns the bounding box of a box with half extents h, rotation
// matrix r and centre p.
func boundsOf(h Vec3, r *Mat3, p Vec3) aabb {
	e := Vec3{
		mul(abs(r[0].X), h.X) + mul(abs(r[0].Y), h.Y) + mul(abs(r[0].Z), h.Z),
		mul(abs(r[1].X), h.X) + mul(abs(r[1].Y), h.Y) + mul(abs(r[1].Z), h.Z),
		mul(abs(r[2].X), h.X) + mul(abs(r[2].Y), h.Y) + mul(abs(r[2].Z), h.Z),
	}
	return aabb{p.Sub(e), p.Add(e)}
}

// corner returns the local position of vertex k (0-7) of a box with half
// extents h: bit 0 picks the sign of x, bit 1 of y, bit 2 of z.
func corner(h Vec3, k int) Vec3 {
	c := h
	if k&1 == 0 {
		c.X = -c.X
	}
	if k&2 == 0 {
		c.Y = -c.Y
	}
	if k&4 == 0 {
		c.Z = -c.Z
	}
	return c
}

// collide fills w.manifold with this step's contacts in (A, B, feature)
// order: for each body A in index order, its ground contacts, then its
// contacts with every later body B.
func (w *World) collide() {
	w.manifold = w.manifold[:0]
	margin := w.cfg.Margin
	for i := range w.shapes {
		si := &w.shapes[i]
		bi := &w.st.Bodies[i]
		if !si.static && w.bounds[i].lo.Y < margin {
			for k := 0; k < 8; k++ {
				p := bi.Pos.Add(w.rot[i].MulVec(corner(si.half, k)))
				if p.Y < margin {
					w.addContact(int32(i), Ground, uint32(k), Vec3{0, 1, 0}, p, p.Y)
				}
			}
		}
		for j := i + 1; j < len(w.shapes); j++ {
			sj := &w.shapes[j]
			if si.static && sj.static {
				continue
			}
			if !w.bounds[i].overlaps(&w.bounds[j], margin) {
				continue
			}
			w.boxPair(i, j)
		}
	}
}

// projRadius returns the half length of the projection of box i on the
// unit axis u.
func (w *World) projRadius(i int, u Vec3) float64 {
	h, r := w.shapes[i].half, &w.rot[i]
	return mul(h.X, abs(r.Col(0).Dot(u))) + mul(h.Y, abs(r.Col(1).Dot(u))) + mul(h.Z, abs(r.Col(2).Dot(u)))
}

// inside reports whether the world point p lies in box i grown by m.
func (w *World) inside(i int, p Vec3, m float64) bool {
	l := w.rot[i].MulTVec(p.Sub(w.st.Bodies[i].Pos))
	h := w.shapes[i].half
	return abs(l.X) <= h.X+m && abs(l.Y) <= h.Y+m && abs(l.Z) <= h.Z+m
}

// boxPair adds the contacts between boxes a < b. The pair gets one normal:
// the face axis of either box along which the two overlap least (a separating
// axis test over the six face axes; edge-edge axes are not tested, so two
// boxes crossing edge to edge may sink into each other a little). The contact
// points are the vertices of each box that lie inside the other, grown by
// the margin: features 0-7 are vertices of a, 8-15 vertices of b.
func (w *World) boxPair(a, b int) {
	margin := w.cfg.Margin
	pa, pb := w.st.Bodies[a].Pos, w.st.Bodies[b].Pos
	d := pa.Sub(pb)
	var n Vec3
	best := 0.0
	for k := 0; k < 6; k++ {
		u := w.rot[a].Col(k)
		if k >= 3 {
			u = w.rot[b].Col(k - 3)
		}
		dist := d.Dot(u)
		overlap := w.projRadius(a, u) + w.projRadius(b, u) - abs(dist)
		if k == 0 || overlap < best {
			best, n = overlap, u
			if dist < 0 {
				n = u.Neg()
			}
		}
	}
	if best < -margin {
		return
	}
	ra, rb := w.projRadius(a, n), w.projRadius(b, n)
	for k := 0; k < 8; k++ {
		p := pa.Add(w.rot[a].MulVec(corner(w.shapes[a].half, k)))
		if w.inside(b, p, margin) {
			w.addContact(int32(a), int32(b), uint32(k), n, p, p.Sub(pb).Dot(n)-rb)
		}
	}
	for k := 0; k < 8; k++ {
		q := pb.Add(w.rot[b].MulVec(corner(w.shapes[b].half, k)))
		if w.inside(a, q, margin) {
			w.addContact(int32(a), int32(b), uint32(8+k), n, q, -ra-q.Sub(pa).Dot(n))
		}
	}
}

// addContact appends a contact with the pair's material.
func (w *World) addContact(a, b int32, feature uint32, n, p Vec3, sep float64) {
	sa := &w.shapes[a]
	mu, e := mul(sa.friction, w.cfg.GroundFriction), sa.restitution
	if b != Ground {
		sb := &w.shapes[b]
		mu, e = mul(sa.friction, sb.friction), max(e, sb.restitution)
	}
	w.manifold = append(w.manifold, contact{a: a, b: b, feature: feature, n: n, p: p, sep: sep, mu: sqrt(mu), e: e})
}
