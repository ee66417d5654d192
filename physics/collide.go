package physics

// collide finds this step's contacts and prepares them for the solver, in
// key order: for each pair in (a, b) order, after the ground contacts of
// every active body up to a. A sleeping box touched by an active one is
// woken (it is solved as if static this step, and moves from the next).
func (w *World) collide() {
	w.ctx.cons = w.ctx.cons[:0]
	w.ctx.pts = w.ctx.pts[:0]
	w.ctx.info = w.ctx.info[:0]
	w.ctx.exact = w.ctx.exact[:0]
	w.ctx.exactPts = w.ctx.exactPts[:0]
	w.ctx.redo = w.ctx.redo[:0]
	w.ctx.redoHits = 0
	o := 0                 // where the walk through the previous cache stands
	g := 0                 // next active body whose ground contacts are still to come
	slots := w.narrowAll() // nil on one worker: each pair is found below
	for p, pr := range w.ctx.pairs.list {
		a, b := int32(pr>>32), int32(uint32(pr))
		for ; g < len(w.ctx.active) && w.ctx.active[g] <= a; g++ {
			w.ground(w.ctx.active[g], &o)
		}
		out, cl, hit := &w.ctx.own, 0.0, false
		if slots != nil {
			out, cl, hit = &slots[p].out, slots[p].cl, slots[p].hit
		} else {
			cl, hit = w.narrow(a, b, out)
		}
		if !hit {
			continue
		}
		if cl > redoMin && out.near && w.cfg.Iterations > 1 {
			w.addRedo(a, b, cl, out, &o)
		} else {
			for m := 0; m < out.m; m++ {
				w.addConstraint(a, b, out.n[m], out.pts[m][:out.k[m]], &o)
			}
		}
		if out.m == 0 {
			continue
		}
		if w.ctx.sidx[a] < 0 {
			w.wakeTouched(int(a))
		}
		if w.ctx.sidx[b] < 0 {
			w.wakeTouched(int(b))
		}
	}
	for ; g < len(w.ctx.active); g++ {
		w.ground(w.ctx.active[g], &o)
	}
}

// narrow finds the contacts of pair (a, b) into out, and returns how far
// the boxes may close in this step (see closing); hit is false when their
// bounding spheres are too far apart for a contact and out was not
// touched. It only reads the world, so the pairs may be found in parallel
// (narrow.go).
func (w *World) narrow(a, b int32, out *manifolds) (cl float64, hit bool) {
	cl = w.closing(a, b)
	margin := w.cfg.Margin
	// Bounding spheres further apart than the speculative distance:
	// no contact this step (bounds grown by the bodies' own sweeps
	// overlap for boxes that move along together).
	d := w.st.Bodies[b].Pos.Sub(w.st.Bodies[a].Pos)
	if r := w.shapes[a].radius + w.shapes[b].radius + margin + cl; d.Dot(d) > mul(r, r) {
		return cl, false
	}
	A, B := w.boxOf(a), w.boxOf(b)
	boxBox(&A, &B, margin+cl, cl, out)
	return cl, true
}

// closing returns how far boxes a and b may close in on each other this
// step: their relative speed after forces times dt, plus the distance
// their vertices may turn about their centres.
func (w *World) closing(a, b int32) float64 {
	var v Vec3
	rs := 0.0
	if k := w.ctx.sidx[a]; k >= 0 {
		v, rs = w.ctx.sb[k].vp, w.ctx.sb[k].rs
	}
	if k := w.ctx.sidx[b]; k >= 0 {
		v, rs = v.Sub(w.ctx.sb[k].vp), rs+w.ctx.sb[k].rs
	}
	return mul(w.cfg.Dt, v.Len()) + rs
}

// ground adds the contact of active body i with the ground plane y = 0:
// its vertices below the margin plus its sweep, at most four.
func (w *World) ground(i int32, o *int) {
	if w.bounds[i].lo.Y >= mul(0.5, w.cfg.Margin) {
		return
	}
	spec := w.cfg.Margin + w.sweep[i]
	b := &w.st.Bodies[i]
	r := &w.rot[i]
	h := w.shapes[i].half
	pts := &w.ctx.gpts // scratch, not zeroed: np counts what is written
	np := 0
	// The vertices' heights first (the rows of r times the half extents,
	// summed as MulVec sums them), the rest of a vertex only if it is low.
	ax, ay, az := mul(r[1].X, h.X), mul(r[1].Y, h.Y), mul(r[1].Z, h.Z)
	// Each term with the vertex's sign, by its bit (as corner picks them).
	sx, sy, sz := [2]float64{-ax, ax}, [2]float64{-ay, ay}, [2]float64{-az, az}
	for v := 0; v < 8; v++ {
		y := b.Pos.Y + (sx[v&1] + sy[v>>1&1] + sz[v>>2&1])
		if y < spec {
			p := b.Pos.Add(r.MulVec(corner(h, v)))
			pts[np] = cpt{p: Vec3{p.X, mul(0.5, p.Y), p.Z}, sep: p.Y, feature: uint32(v)}
			np++
		}
	}
	if np == 0 {
		return
	}
	var out [4]cpt
	k := reduce(pts, np, Vec3{0, 1, 0}, &out)
	w.addConstraint(i, Ground, Vec3{0, 1, 0}, out[:k], o)
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
