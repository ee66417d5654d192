package physics

import "slices"

// addConstraint prepares the contact of a and b (b may be Ground) with
// normal n (from b towards a) and points pts, sorted by feature: lever
// arms, effective masses, the normal velocity before the step, and the
// impulses of the same features in the previous step's cache, found by a
// walk that only moves forward (o), since both lists are in key order.
func (w *World) addConstraint(a, b int32, n Vec3, pts []cpt, o *int) {
	first, np, nc := len(w.ctx.pts), len(pts), len(w.ctx.cons)
	// prepare sets every field of the new entries.
	w.ctx.pts = slices.Grow(w.ctx.pts, np)[:first+np]
	w.ctx.info = slices.Grow(w.ctx.info, np)[:first+np]
	w.ctx.cons = slices.Grow(w.ctx.cons, 1)[:nc+1]
	w.prepare(&w.ctx.cons[nc], int32(first), a, b, n, pts, w.st.Contacts, o)
	if w.fast(a) || w.fast(b) {
		w.addExact(a, b, n, pts)
	}
}

// prepare fills c with the contact of a and b (as addConstraint), its
// points at w.ctx.pts[first:], the impulses found in old from *o on.
func (w *World) prepare(c *constraint, first int32, a, b int32, n Vec3, pts []cpt, old []ContactState, o *int) {
	*c = constraint{a: a, b: b, s1: w.ctx.sidx[a], s2: -1}
	sa := &w.shapes[a]
	mu, e := mul(sa.friction, w.cfg.GroundFriction), sa.restitution
	if b != Ground {
		sbs := &w.shapes[b]
		mu, e = mul(sa.friction, sbs.friction), max(e, sbs.restitution)
		c.s2 = w.ctx.sidx[b]
	}
	c.mu, c.e = sqrt(mu), e
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
	c.first, c.count = first, int32(len(pts))

	s1 := &w.ctx.sb[c.s1]
	c.m1 = s1.invM
	var s2 *solverBody
	var p2 Vec3
	if c.s2 >= 0 {
		s2 = &w.ctx.sb[c.s2]
		c.m2 = s2.invM
		p2 = w.st.Bodies[b2].Pos
	}
	p1 := w.st.Bodies[b1].Pos
	var centre Vec3
	for _, q := range pts {
		centre = centre.Add(q.p)
	}
	centre = centre.Scale(1 / float64(len(pts)))

	// Friction and twist at the centre.
	c.f1 = frictionRow(centre.Sub(p1), centre.Sub(p2), c.t1, s1, s2)
	c.f2 = frictionRow(centre.Sub(p1), centre.Sub(p2), c.t2, s1, s2)
	I1 := &s1.invI
	c.tw1 = Vec3{I1[0].Dot(c.d), I1[1].Dot(c.d), I1[2].Dot(c.d)} // I1.MulVec(d)
	k := c.d.Dot(c.tw1)
	var I2 *Mat3
	if s2 != nil {
		I2 = &s2.invI
		c.tw2 = Vec3{I2[0].Dot(c.d), I2[1].Dot(c.d), I2[2].Dot(c.d)}
		k += c.d.Dot(c.tw2)
	}
	c.mtw = 1 / k

	reach, spread := 0.0, 0.0
	reach1, reach2 := 0.0, 0.0 // squared
	matched, total := 0, 0.0   // points found in old, and their impulses
	for qi, q := range pts {
		p := cpoint{sep: q.sep, s: q.sep}
		r1 := q.p.Sub(p1)
		p.rn1 = r1.Cross(c.d)
		p.in1 = Vec3{I1[0].Dot(p.rn1), I1[1].Dot(p.rn1), I1[2].Dot(p.rn1)}
		kn := c.m1 + p.rn1.Dot(p.in1)
		reach1 = max(reach1, p.rn1.Dot(p.rn1))
		if s2 != nil {
			p.rn2 = q.p.Sub(p2).Cross(c.d)
			p.in2 = Vec3{I2[0].Dot(p.rn2), I2[1].Dot(p.rn2), I2[2].Dot(p.rn2)}
			kn += c.m2 + p.rn2.Dot(p.in2)
			reach2 = max(reach2, p.rn2.Dot(p.rn2))
		}
		p.mn, p.kn = 1/kn, kn
		off := q.p.Sub(centre)
		info := pointInfo{feature: q.feature, off: off.AddScaled(c.d, -off.Dot(c.d))} // in the tangent plane
		l2 := info.off.Dot(info.off)
		spread += l2
		reach += sqrt(l2)

		key := contactKey(a, b, q.feature)
		for *o < len(old) && old[*o].key() < key {
			*o++
		}
		if *o < len(old) && old[*o].key() == key {
			oc := &old[*o]
			p.pn = oc.Pn
			matched++
			total += oc.Pn
			c.f1.p += oc.Pt1
			c.f2.p += oc.Pt2
			f := c.t1.Scale(oc.Pt1).Add(c.t2.Scale(oc.Pt2))
			c.ptw += info.off.Cross(f).Dot(c.d)
		}
		w.ctx.pts[first+int32(qi)] = p
		w.ctx.info[first+int32(qi)] = info
	}
	if spread > 1e-12 {
		c.twistReach = reach / float64(len(pts))
	} else {
		c.ptw = 0
	}
	if matched > 0 && matched == len(pts)-1 {
		w.spreadImpulses(c, int32(first), matched, total)
	}
	c.cold = c.f1.p == 0 && c.f2.p == 0 && c.ptw == 0
	ps := w.ctx.pts[first : first+c.count]
	for k := range ps {
		c.cold = c.cold && ps[k].pn == 0
	}
	c.reach1, c.reach2 = sqrt(reach1), sqrt(reach2)
	c.smin = minSep(ps)
	w.loadSoft(c, ps)
	switch c.shock = shockSide(c, w.cfg.Gravity); c.shock {
	case shockS1:
		w.ctx.sb[c.s1].carries = true
	case shockS2:
		w.ctx.sb[c.s2].carries = true
	}
	w.markHeavy(c, ps)
	if len(ps) > 1 {
		c.koff = blockK(c, ps)
	}
	if len(ps) == maxPoints {
		c.null, c.hasNull = nullVector(w.ctx.info[first:first+c.count], c.t1, c.t2)
	}
}

// fast reports whether body i (or Ground) is active and turns fast (see
// exactCon).
func (w *World) fast(i int32) bool {
	if i == Ground {
		return false
	}
	k := w.ctx.sidx[i]
	return k >= 0 && w.ctx.sb[k].rs > fastTurn
}

// addExact makes the contact about to be added (normal n from b towards
// a, points pts) an exactCon: each point is the incident point, fixed in
// the body that does not hold the plane (the reference face's, or for a
// ground or edge contact b's plane through the point, normal n).
func (w *World) addExact(a, b int32, n Vec3, pts []cpt) {
	x, y, nx := b, a, n
	if b != Ground && pts[0].feature&(featEdge|featRefB) == 0 { // A holds the reference face
		x, y, nx = a, b, n.Neg()
	}
	rx, px := w.poseNow(x)
	ry, py := w.poseNow(y)
	w.ctx.exact = append(w.ctx.exact, exactCon{ci: int32(len(w.ctx.cons) - 1), first: int32(len(w.ctx.exactPts)), x: x, y: y})
	nl := rx.MulTVec(nx)
	for _, q := range pts {
		p := q.p.AddScaled(nx, mul(q.sep, 0.5)) // the incident point
		w.ctx.exactPts = append(w.ctx.exactPts, exactPoint{nl: nl, pl: ry.MulTVec(p.Sub(py)), h: nx.Dot(p.Sub(px)) - q.sep})
	}
	for _, i := range [2]int32{a, b} {
		if i != Ground {
			if k := w.ctx.sidx[i]; k >= 0 {
				w.ctx.sb[k].track = true
			}
		}
	}
}

// frictionRow returns the friction row along t at lever arms r1 and r2 (r2
// unused when s2 is nil).
func frictionRow(r1, r2, t Vec3, s1, s2 *solverBody) row {
	var f row
	f.r1 = r1.Cross(t)
	I1 := &s1.invI
	f.i1 = Vec3{I1[0].Dot(f.r1), I1[1].Dot(f.r1), I1[2].Dot(f.r1)} // I1.MulVec(f.r1)
	k := s1.invM + f.r1.Dot(f.i1)
	if s2 != nil {
		f.r2 = r2.Cross(t)
		I2 := &s2.invI
		f.i2 = Vec3{I2[0].Dot(f.r2), I2[1].Dot(f.r2), I2[2].Dot(f.r2)}
		k += s2.invM + f.r2.Dot(f.i2)
	}
	f.m = 1 / k
	return f
}

// empty makes c a constraint of its pair without points (at w.ctx.pts[first:]).
func (w *World) empty(c *constraint, first int32) {
	s1, s2 := w.ctx.sidx[c.a], int32(-1)
	if c.b != Ground {
		s2 = w.ctx.sidx[c.b]
	}
	if s1 < 0 {
		s1, s2 = s2, -1
	}
	*c = constraint{a: c.a, b: c.b, s1: s1, s2: s2, first: first, cold: true}
}

// spreadImpulses warm-starts contact c evenly when all but one of its
// points found their feature in the cache (with normal impulses summing
// to total): every point gets total over the points' count, and the
// friction and twist found are scaled up to all the points. With the
// impulses kept for the others and none for the one renamed, the
// impulses of a pair that has just stopped a fast fall (tens of times its
// weight's) are warm-started lopsided: a cube landing at 16.7 m/s on
// another, 1 cm off centre, whose fourth point changed its feature between
// the impact's two steps, was turned at 4.7 rad/s by that warm start and
// slid 1.4 cm sideways (impact_test.go). A contact that lost more than one
// point keeps what it found: spreading those too made the cubes scene's
// overlaps deeper (mean of the per-step deepest 1.10 cm against 0.85 over
// 1024 steps), and keeping only this case, 0.79.
func (w *World) spreadImpulses(c *constraint, first int32, matched int, total float64) {
	n := int32(len(w.ctx.pts[first : first+c.count]))
	each := total / float64(n)
	for q := first; q < first+n; q++ {
		w.ctx.pts[q].pn = each
	}
	f := float64(n) / float64(matched)
	c.f1.p, c.f2.p, c.ptw = mul(c.f1.p, f), mul(c.f2.p, f), mul(c.ptw, f)
}
