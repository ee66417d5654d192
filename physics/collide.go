package physics

import "slices"

// activate lists this step's active bodies (dynamic, enabled, awake) in
// index order, and derives what the step needs of them from their state:
// rotation, world inverse inertia, the velocity change per substep, how far
// they may move this step (sweep) and their bounds grown by it.
func (w *World) activate() {
	w.active = w.active[:0]
	w.sb = w.sb[:0]
	w.vel = w.vel[:0]
	dt, h := w.cfg.Dt, w.h
	for i := range w.shapes {
		s := &w.shapes[i]
		b := &w.st.Bodies[i]
		if s.static || b.Disabled || b.Asleep {
			w.sidx[i] = -1
			continue
		}
		if w.mask != nil && !w.mask[i] {
			// Awake but not followed (partial.go): its bounds, for the
			// broad phase to say what it reaches, on the first pass.
			w.sidx[i] = -1
			if w.lite {
				w.liteBounds(i)
				w.sidx[i] = pairOnly
			}
			continue
		}
		w.sidx[i] = int32(len(w.active))
		w.active = append(w.active, int32(i))
		w.fresh[i] = false
		w.rot[i] = rotationMat(b.Rot)
		invI := sandwich(&w.rot[i], s.invInertia)
		acc := w.cfg.Gravity.AddScaled(b.Force, s.invMass)
		alpha := invI.MulVec(b.Torque)
		angVel := b.AngVel
		// The speed the body may reach this step, and so how far it may go.
		v := b.Vel.AddScaled(acc, dt)
		rs := mul(dt, mul(angVel.AddScaled(alpha, dt).Len(), s.radius))
		sw := mul(dt, v.Len()) + rs
		w.sweep[i] = sw
		w.bounds[i] = boundsOf(s.half, &w.rot[i], b.Pos, mul(0.5, w.cfg.Margin)+sw)
		w.sb = append(w.sb, solverBody{
			dv: acc.Scale(h), dw: alpha.Scale(h),
			invM: s.invMass, invI: invI,
			vp: v, rs: rs, turn: w.rot[i],
		})
		w.vel = append(w.vel, bodyVel{v: b.Vel, w: angVel})
	}
}

// collide finds this step's contacts and prepares them for the solver, in
// key order: for each pair in (a, b) order, after the ground contacts of
// every active body up to a. A sleeping box touched by an active one is
// woken (it is solved as if static this step, and moves from the next).
func (w *World) collide() {
	w.cons = w.cons[:0]
	w.pts = w.pts[:0]
	w.info = w.info[:0]
	w.exact = w.exact[:0]
	w.exactPts = w.exactPts[:0]
	w.redo = w.redo[:0]
	o := 0 // where the walk through the previous cache stands
	g := 0 // next active body whose ground contacts are still to come
	var own manifolds
	slots := w.narrowAll() // nil on one worker: each pair is found below
	for p, pr := range w.bp.pairs {
		a, b := int32(pr>>32), int32(uint32(pr))
		for ; g < len(w.active) && w.active[g] <= a; g++ {
			w.ground(w.active[g], &o)
		}
		out, cl, hit := &own, 0.0, false
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
	if k := w.sidx[a]; k >= 0 {
		v, rs = w.sb[k].vp, w.sb[k].rs
	}
	if k := w.sidx[b]; k >= 0 {
		v, rs = v.Sub(w.sb[k].vp), rs+w.sb[k].rs
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
	var pts [16]cpt
	np := 0
	// The vertices' heights first (the rows of r times the half extents,
	// summed as MulVec sums them), the rest of a vertex only if it is low.
	ax, ay, az := mul(r[1].X, h.X), mul(r[1].Y, h.Y), mul(r[1].Z, h.Z)
	for v := 0; v < 8; v++ {
		y := b.Pos.Y + (pick(v&1, ax) + pick(v&2, ay) + pick(v&4, az))
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
	k := reduce(&pts, np, Vec3{0, 1, 0}, &out)
	w.addConstraint(i, Ground, Vec3{0, 1, 0}, out[:k], o)
}

// pick returns x if bit is set, else -x.
func pick(bit int, x float64) float64 {
	if bit != 0 {
		return x
	}
	return -x
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
	first, np, nc := len(w.pts), len(pts), len(w.cons)
	// prepare sets every field of the new entries.
	w.pts = slices.Grow(w.pts, np)[:first+np]
	w.info = slices.Grow(w.info, np)[:first+np]
	w.cons = slices.Grow(w.cons, 1)[:nc+1]
	w.prepare(&w.cons[nc], int32(first), a, b, n, pts, w.st.Contacts, o)
	if w.fast(a) || w.fast(b) {
		w.addExact(a, b, n, pts)
	}
}

// prepare fills c with the contact of a and b (as addConstraint), its
// points at w.pts[first:], the impulses found in old from *o on.
func (w *World) prepare(c *constraint, first int32, a, b int32, n Vec3, pts []cpt, old []ContactState, o *int) {
	*c = constraint{a: a, b: b, s1: w.sidx[a], s2: -1}
	sa := &w.shapes[a]
	mu, e := mul(sa.friction, w.cfg.GroundFriction), sa.restitution
	if b != Ground {
		sbs := &w.shapes[b]
		mu, e = mul(sa.friction, sbs.friction), max(e, sbs.restitution)
		c.s2 = w.sidx[b]
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

	s1 := &w.sb[c.s1]
	c.m1 = s1.invM
	var s2 *solverBody
	var p2 Vec3
	var v2 bodyVel
	if c.s2 >= 0 {
		s2 = &w.sb[c.s2]
		c.m2 = s2.invM
		p2 = w.st.Bodies[b2].Pos
		v2 = w.vel[c.s2]
	}
	v1 := w.vel[c.s1]
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
	for qi, q := range pts {
		p := cpoint{sep: q.sep, s: q.sep}
		r1 := q.p.Sub(p1)
		p.rn1 = r1.Cross(c.d)
		p.in1 = Vec3{I1[0].Dot(p.rn1), I1[1].Dot(p.rn1), I1[2].Dot(p.rn1)}
		kn := c.m1 + p.rn1.Dot(p.in1)
		vn := c.d.Dot(v1.v) + p.rn1.Dot(v1.w)
		reach1 = max(reach1, p.rn1.Dot(p.rn1))
		if s2 != nil {
			p.rn2 = q.p.Sub(p2).Cross(c.d)
			p.in2 = Vec3{I2[0].Dot(p.rn2), I2[1].Dot(p.rn2), I2[2].Dot(p.rn2)}
			kn += c.m2 + p.rn2.Dot(p.in2)
			vn -= c.d.Dot(v2.v) + p.rn2.Dot(v2.w)
			reach2 = max(reach2, p.rn2.Dot(p.rn2))
		}
		p.mn, p.kn = 1/kn, kn
		off := q.p.Sub(centre)
		info := pointInfo{feature: q.feature, relVel: vn, off: off.AddScaled(c.d, -off.Dot(c.d))} // in the tangent plane
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
			c.f1.p += oc.Pt1
			c.f2.p += oc.Pt2
			f := c.t1.Scale(oc.Pt1).Add(c.t2.Scale(oc.Pt2))
			c.ptw += info.off.Cross(f).Dot(c.d)
		}
		w.pts[first+int32(qi)] = p
		w.info[first+int32(qi)] = info
	}
	if spread > 1e-12 {
		c.twistReach = reach / float64(len(pts))
	} else {
		c.ptw = 0
	}
	c.cold = c.f1.p == 0 && c.f2.p == 0 && c.ptw == 0
	ps := w.pts[first : first+c.count]
	for k := range ps {
		c.cold = c.cold && ps[k].pn == 0
	}
	c.reach1, c.reach2 = sqrt(reach1), sqrt(reach2)
	c.smin = minSep(ps)
	w.loadSoft(c, ps)
	if len(ps) > 1 {
		c.koff = blockK(c, ps)
	}
	if len(ps) == maxPoints {
		c.null, c.hasNull = nullVector(w.info[first:first+c.count], c.t1, c.t2)
	}
}

// fast reports whether body i (or Ground) is active and turns fast (see
// exactCon).
func (w *World) fast(i int32) bool {
	if i == Ground {
		return false
	}
	k := w.sidx[i]
	return k >= 0 && w.sb[k].rs > fastTurn
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
	w.exact = append(w.exact, exactCon{ci: int32(len(w.cons) - 1), first: int32(len(w.exactPts)), x: x, y: y})
	nl := rx.MulTVec(nx)
	for _, q := range pts {
		p := q.p.AddScaled(nx, mul(q.sep, 0.5)) // the incident point
		w.exactPts = append(w.exactPts, exactPoint{nl: nl, pl: ry.MulTVec(p.Sub(py)), h: nx.Dot(p.Sub(px)) - q.sep})
	}
	for _, i := range [2]int32{a, b} {
		if i != Ground {
			if k := w.sidx[i]; k >= 0 {
				w.sb[k].track = true
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

// appendContacts appends c's points to cs as cache entries. Friction per
// point: the centre's impulse shared equally, plus the twist as tangent
// impulses about the centre (they sum to the centre's impulse and turn by
// the twist impulse).
func (w *World) appendContacts(cs []ContactState, c *constraint) []ContactState {
	pts := w.pts[c.first : c.first+c.count]
	info := w.info[c.first : c.first+c.count]
	share := 1 / float64(len(pts))
	spread := 0.0
	for k := range info {
		spread += info[k].off.Dot(info[k].off)
	}
	tw := 0.0
	if spread > 1e-12 {
		tw = c.ptw / spread
	}
	for k := range pts {
		t := c.d.Cross(info[k].off).Scale(tw)
		cs = append(cs, ContactState{A: c.a, B: c.b, Feature: info[k].feature, Pn: pts[k].pn,
			Pt1: mul(c.f1.p, share) + t.Dot(c.t1), Pt2: mul(c.f2.p, share) + t.Dot(c.t2)})
	}
	return cs
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
		if c.count == 0 {
			continue
		}
		carry(contactKey(c.a, c.b, w.info[c.first].feature))
		next = w.appendContacts(next, c)
	}
	carry(^uint64(0))
	w.cache = w.st.Contacts
	w.st.Contacts = next
}

// redoMin is the closing distance (m) of a pair in a step above which its
// contact is made again at the start of every substep (see redo).
const redoMin = 0.08

// redo is a pair of boxes that close in on each other fast (by more than
// redoMin in a step): its contacts are made again from the poses at the
// start of every substep, so that a face or a corner that comes within
// reach during the step (a cube sliding onto a ramp, or spinning into a
// wall) has a contact before it gets in. The pair owns two constraints
// (the face contact and the edge contact boxBox may find), each with room
// for four points; a constraint without points is skipped.
type redo struct {
	a, b  int32
	ci    int32   // its constraints: w.cons[ci], w.cons[ci+1]
	first int32   // their points: w.pts[first : first+8]
	cl    float64 // closing distance in the whole step
}

// addRedo adds the constraints of redo pair (a, b) with the contacts out
// found at the start of the step.
func (w *World) addRedo(a, b int32, cl float64, out *manifolds, o *int) {
	r := redo{a: a, b: b, ci: int32(len(w.cons)), first: int32(len(w.pts)), cl: cl}
	for k := 0; k < 8; k++ {
		w.pts = append(w.pts, cpoint{})
		w.info = append(w.info, pointInfo{})
	}
	for m := 0; m < 2; m++ {
		w.cons = append(w.cons, constraint{a: a, b: b, s1: -1, s2: -1})
		c := &w.cons[len(w.cons)-1]
		if m < out.m {
			w.prepare(c, r.first+int32(4*m), a, b, out.n[m], out.pts[m][:out.k[m]], w.st.Contacts, o)
		} else {
			w.empty(c, r.first+int32(4*m))
		}
	}
	for _, i := range [2]int32{a, b} {
		if k := w.sidx[i]; k >= 0 {
			w.sb[k].track = true
		}
	}
	w.redo = append(w.redo, r)
}

// empty makes c a constraint of its pair without points (at w.pts[first:]).
func (w *World) empty(c *constraint, first int32) {
	s1, s2 := w.sidx[c.a], int32(-1)
	if c.b != Ground {
		s2 = w.sidx[c.b]
	}
	if s1 < 0 {
		s1, s2 = s2, -1
	}
	*c = constraint{a: c.a, b: c.b, s1: s1, s2: s2, first: first, cold: true}
}

// redoContacts makes the contacts of the redo pairs again from the poses
// at the start of substep s (s > 0), for the closing distance left in the
// step. The impulses of the points whose features were there before carry
// over (friction as the cache would keep it), so that warm starting goes
// on; a point's separation at the start of the step is set back so that
// the solver's linear estimate gives the one found now.
func (w *World) redoContacts(s int) {
	for k := range w.redo {
		r := &w.redo[k]
		if w.redoPair(r, s, &w.redoOld, &w.redoRel) {
			w.wakeRedo(r)
		}
	}
}

// redoPair makes the contacts of redo pair r again at the start of
// substep s (see redoContacts), with old and rel as scratch, and reports
// whether it found any: then its sides that do not move must be woken
// (wakeRedo), which the parallel step does after the solver.
func (w *World) redoPair(r *redo, s int, oldBuf *[]ContactState, relBuf *[]float64) bool {
	left := float64(w.cfg.Iterations-s) / float64(w.cfg.Iterations)
	margin := w.cfg.Margin
	var out manifolds
	old := (*oldBuf)[:0]
	rel := (*relBuf)[:0]
	for m := int32(0); m < 2; m++ {
		c := &w.cons[r.ci+m]
		old = w.appendContacts(old, c)
		for q := c.first; q < c.first+c.count; q++ {
			rel = append(rel, w.info[q].relVel)
		}
	}
	*oldBuf, *relBuf = old, rel
	A, B := w.boxNow(r.a), w.boxNow(r.b)
	cl := mul(r.cl, left)
	boxBox(&A, &B, margin+cl, cl, &out)
	o := 0
	for m := int32(0); m < 2; m++ {
		c := &w.cons[r.ci+m]
		if int(m) >= out.m {
			w.empty(c, r.first+4*m)
			continue
		}
		w.prepare(c, r.first+4*m, r.a, r.b, out.n[m], out.pts[m][:out.k[m]], old, &o)
		w.rebase(c, old, rel)
	}
	return out.m > 0
}

// wakeRedo wakes the sides of redo pair r that do not move this step.
func (w *World) wakeRedo(r *redo) {
	for _, i := range [2]int32{r.a, r.b} {
		if w.sidx[i] < 0 {
			w.wake(int(i))
		}
	}
}

// rebase sets the start-of-step separation of c's points, just made in a
// substep, so that the linear estimate from the bodies' motion so far
// gives the separation found now; a point whose feature was there before
// keeps its normal velocity before the step (for restitution) and counts
// as having pushed if it carries an impulse.
func (w *World) rebase(c *constraint, old []ContactState, rel []float64) {
	b1 := &w.sb[c.s1]
	var dp2, dq2 Vec3
	if c.s2 >= 0 {
		dp2, dq2 = w.sb[c.s2].dp, w.sb[c.s2].dq
	}
	ddp := c.d.Dot(b1.dp) - c.d.Dot(dp2)
	for q := c.first; q < c.first+c.count; q++ {
		p, in := &w.pts[q], &w.info[q]
		p.sep = p.s - (ddp + p.rn1.Dot(b1.dq) - p.rn2.Dot(dq2))
		p.maxPn = p.pn
		for j := range old {
			if old[j].Feature == in.feature {
				in.relVel = rel[j]
				break
			}
		}
	}
}

// boxNow returns body i as a box in its pose now (mid-step for an active
// body, whose rotation redo keeps up to date).
func (w *World) boxNow(i int32) box {
	r, p := w.poseNow(i)
	h := w.shapes[i].half
	return box{p: p, u: [3]Vec3{r.Col(0), r.Col(1), r.Col(2)}, h: [3]float64{h.X, h.Y, h.Z}}
}
