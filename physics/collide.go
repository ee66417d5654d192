package physics

// activate lists this step's active bodies (dynamic, enabled, awake) in
// index order, and derives what the step needs of them from their state:
// rotation, world inverse inertia, the velocity change per substep, how far
// they may move this step (sweep) and their bounds grown by it.
func (w *World) activate() {
	w.active = w.active[:0]
	w.sb = w.sb[:0]
	dt, h := w.cfg.Dt, w.h
	for i := range w.shapes {
		s := &w.shapes[i]
		b := &w.st.Bodies[i]
		if s.static || b.Disabled || b.Asleep {
			w.sidx[i] = -1
			continue
		}
		w.sidx[i] = int32(len(w.active))
		w.active = append(w.active, int32(i))
		w.rot[i] = rotationMat(b.Rot)
		invI := sandwich(&w.rot[i], s.invInertia)
		acc := w.cfg.Gravity.AddScaled(b.Force, s.invMass)
		alpha := invI.MulVec(b.Torque)
		// The speed the body may reach this step, and so how far it may go.
		v := b.Vel.AddScaled(acc, dt)
		sw := mul(dt, v.Len()+mul(b.AngVel.AddScaled(alpha, dt).Len(), s.radius))
		w.sweep[i] = sw
		w.bounds[i] = boundsOf(s.half, &w.rot[i], b.Pos, mul(0.5, w.cfg.Margin)+sw)
		w.sb = append(w.sb, solverBody{
			v: b.Vel, w: b.AngVel,
			dv: acc.Scale(h), dw: alpha.Scale(h),
			invM: s.invMass, invI: invI,
		})
	}
}

// collide finds this step's contacts and prepares them for the solver, in
// key order: for each pair in (a, b) order, after the ground contacts of
// every active body up to a. A sleeping box touched by an active one is
// woken (it is solved as if static this step, and moves from the next).
func (w *World) collide() {
	w.cons = w.cons[:0]
	w.pts = w.pts[:0]
	o := 0 // where the walk through the previous cache stands
	g := 0 // next active body whose ground contacts are still to come
	var out [4]cpt
	margin := w.cfg.Margin
	for _, pr := range w.bp.pairs {
		a, b := int32(pr>>32), int32(uint32(pr))
		for ; g < len(w.active) && w.active[g] <= a; g++ {
			w.ground(w.active[g], &o)
		}
		A, B := w.boxOf(a), w.boxOf(b)
		n, k := boxBox(&A, &B, margin+w.sweep[a]+w.sweep[b], &out)
		if k == 0 {
			continue
		}
		w.addConstraint(a, b, n, out[:k], &o)
		if w.sidx[a] < 0 {
			w.wake(int(a))
		}
		if w.sidx[b] < 0 {
			w.wake(int(b))
		}
	}
	for ; g < len(w.active); g++ {
		w.ground(w.active[g], &o)
	}
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
	var pts [8]cpt
	np := 0
	for v := 0; v < 8; v++ {
		p := b.Pos.Add(r.MulVec(corner(h, v)))
		if p.Y < spec {
			pts[np] = cpt{p: Vec3{p.X, mul(0.5, p.Y), p.Z}, sep: p.Y, feature: uint32(v)}
			np++
		}
	}
	if np == 0 {
		return
	}
	var out [4]cpt
	k := reduce(&pts, np, Vec3{0, 1, 0}, &out)
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

// addConstraint prepares the contact of a and b (b may be Ground) with
// normal n (from b towards a) and points pts, sorted by feature: lever
// arms, effective masses, the normal velocity before the step, and the
// impulses of the same features in the previous step's cache, found by a
// walk that only moves forward (o), since both lists are in key order.
func (w *World) addConstraint(a, b int32, n Vec3, pts []cpt, o *int) {
	c := constraint{a: a, b: b, n: n, s1: w.sidx[a], s2: -1}
	sa := &w.shapes[a]
	c.mu, c.e = mul(sa.friction, w.cfg.GroundFriction), sa.restitution
	if b != Ground {
		sbs := &w.shapes[b]
		c.mu, c.e = mul(sa.friction, sbs.friction), max(c.e, sbs.restitution)
		c.s2 = w.sidx[b]
	}
	c.mu = sqrt(c.mu)
	t1, t2 := tangents(n)
	c.d, c.t1, c.t2 = n, t1, t2
	b1, b2 := a, b
	if c.s1 < 0 { // a does not move: solve from b's side
		c.s1, c.s2 = c.s2, -1
		c.d, c.t1, c.t2 = n.Neg(), t1.Neg(), t2.Neg()
		b1, b2 = b, a
	}
	c.soft = w.staticSoft
	if c.s2 >= 0 {
		c.soft = w.soft
	}
	c.first, c.count = int32(len(w.pts)), int32(len(pts))

	s1 := &w.sb[c.s1]
	var s2 *solverBody
	if c.s2 >= 0 {
		s2 = &w.sb[c.s2]
	}
	p1 := w.st.Bodies[b1].Pos
	var p2 Vec3
	if s2 != nil {
		p2 = w.st.Bodies[b2].Pos
	}
	old := w.st.Contacts
	for _, q := range pts {
		p := cpoint{feature: q.feature, sep: q.sep}
		r1 := q.p.Sub(p1)
		p.rn1, p.ra1, p.ra2 = r1.Cross(c.d), r1.Cross(c.t1), r1.Cross(c.t2)
		p.in1, p.ia1, p.ia2 = s1.invI.MulVec(p.rn1), s1.invI.MulVec(p.ra1), s1.invI.MulVec(p.ra2)
		kn := s1.invM + p.rn1.Dot(p.in1)
		k1 := s1.invM + p.ra1.Dot(p.ia1)
		k2 := s1.invM + p.ra2.Dot(p.ia2)
		vn := c.d.Dot(s1.v) + p.rn1.Dot(s1.w)
		if s2 != nil {
			r2 := q.p.Sub(p2)
			p.rn2, p.rb1, p.rb2 = r2.Cross(c.d), r2.Cross(c.t1), r2.Cross(c.t2)
			p.in2, p.ib1, p.ib2 = s2.invI.MulVec(p.rn2), s2.invI.MulVec(p.rb1), s2.invI.MulVec(p.rb2)
			kn += s2.invM + p.rn2.Dot(p.in2)
			k1 += s2.invM + p.rb1.Dot(p.ib1)
			k2 += s2.invM + p.rb2.Dot(p.ib2)
			vn -= c.d.Dot(s2.v) + p.rn2.Dot(s2.w)
		}
		p.mn, p.mt1, p.mt2 = 1/kn, 1/k1, 1/k2
		p.relVel = vn

		key := contactKey(a, b, q.feature)
		for *o < len(old) && old[*o].key() < key {
			*o++
		}
		if *o < len(old) && old[*o].key() == key {
			p.pn, p.pt1, p.pt2 = old[*o].Pn, old[*o].Pt1, old[*o].Pt2
		}
		w.pts = append(w.pts, p)
	}
	w.cons = append(w.cons, c)
}

// storeCache writes the next contact cache: this step's contacts merged, in
// key order, with the cached contacts of pairs the step did not touch
// (neither body active: sleeping or static boxes, or the ground), which
// keep their impulses while they sleep.
func (w *World) storeCache() {
	old := w.st.Contacts
	next := w.cache[:0]
	o := 0
	carry := func(limit uint64) {
		for ; o < len(old) && old[o].key() < limit; o++ {
			c := &old[o]
			if w.sidx[c.A] >= 0 || w.st.Bodies[c.A].Disabled {
				continue
			}
			if c.B != Ground && (w.sidx[c.B] >= 0 || w.st.Bodies[c.B].Disabled) {
				continue
			}
			next = append(next, *c)
		}
	}
	for ci := range w.cons {
		c := &w.cons[ci]
		pts := w.pts[c.first : c.first+c.count]
		carry(contactKey(c.a, c.b, pts[0].feature))
		for k := range pts {
			p := &pts[k]
			next = append(next, ContactState{A: c.a, B: c.b, Feature: p.feature, Normal: c.n, Pn: p.pn, Pt1: p.pt1, Pt2: p.pt2})
		}
	}
	carry(^uint64(0))
	w.cache = w.st.Contacts
	w.st.Contacts = next
}
