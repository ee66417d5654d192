package physics

// The solver is Box2D v3's soft step, in 3D: once per step the contacts are
// prepared (collide.go); then each of Config.Iterations substeps integrates
// velocities, warm-starts every contact with its accumulated impulses, solves
// the contacts with soft position correction, integrates positions and
// relaxes (solves again without the position correction, so that the push
// out of an overlap does not become a bounce); after the substeps comes
// restitution and the impulses are stored for the next step. Each stage is a
// loop of its own over all contacts in key order.
//
// A contact's points each have a normal row. Friction acts at the centre of
// the points, as in Bepu: two tangent rows whose impulse is clamped to the
// disc of radius mu times the points' total normal impulse (the friction
// cone, the same in every direction), and a twist row about the normal
// clamped to that times the points' mean distance from the centre. The cache
// keeps friction per point (see storeCache), so a contact whose points
// change keeps what its remaining points carried.

import "math"

// softness is a soft constraint's coefficients for one substep (Box2D v3's
// b2Softness): the velocity bias per metre of overlap and how the impulse is
// scaled.
type softness struct{ biasRate, massScale, impulseScale float64 }

// makeSoft returns the softness of a spring of frequency hz and damping ratio
// zeta over a substep of h seconds.
func makeSoft(hz, zeta, h float64) softness {
	omega := mul(2*math.Pi, hz)
	ho := mul(h, omega)
	a1 := mul(2, zeta) + ho
	a2 := mul(ho, a1)
	a3 := 1 / (1 + a2)
	return softness{biasRate: omega / a1, massScale: mul(a2, a3), impulseScale: a3}
}

// solverBody is an active body as the solver sees it.
type solverBody struct {
	v, w   Vec3    // velocities
	dv, dw Vec3    // velocity change per substep from gravity, force and torque
	dp, dq Vec3    // position moved and rotation turned (small angles) since the start of the step
	invM   float64 // inverse mass
	invI   Mat3    // world inverse inertia at the start of the step
}

// row is a friction row at the centre of a contact: the lever arms crossed
// with the direction, the inverse inertia applied to those, the effective
// mass and the accumulated impulse.
type row struct {
	r1, r2 Vec3 // r1 × t, r2 × t
	i1, i2 Vec3 // invI1 (r1 × t), invI2 (r2 × t)
	m, p   float64
}

// constraint is the contact of a pair this step: up to four points sharing
// a normal. Solver body s1 always moves; s2 < 0 when the other side does not
// (the ground, a static or a sleeping box). When body a does not move, s1 is
// body b and the solver's directions are flipped, so that the impulses keep
// the cache's signs.
type constraint struct {
	a, b         int32   // bodies, as in the cache: b may be Ground
	n            Vec3    // normal from b towards a, as in the cache
	s1, s2       int32   // solver bodies
	d, t1, t2    Vec3    // normal and tangents as the solver applies them to s1
	mu, e        float64 // friction and restitution of the pair
	soft         softness
	first, count int32 // points: w.pts[first : first+count]

	c          Vec3 // centre of the points, world
	f1, f2     row  // friction along t1 and t2 at the centre
	tw1, tw2   Vec3 // twist: invI1 d, invI2 d
	mtw, ptw   float64
	twistReach float64 // mean distance of the points from the centre, m
}

// cpoint is one contact point's normal row.
type cpoint struct {
	feature  uint32
	sep      float64 // separation at the start of the step
	relVel   float64 // normal velocity before the step, for restitution
	rn1, rn2 Vec3    // r1 × d, r2 × d
	in1, in2 Vec3    // invI1 (r1 × d), invI2 (r2 × d)
	off      Vec3    // offset from the contact's centre
	mn, pn   float64 // effective mass, accumulated impulse
	maxPn    float64
}

// integrateVelocities applies one substep of gravity, forces and damping.
func (w *World) integrateVelocities() {
	for k := range w.sb {
		b := &w.sb[k]
		b.v = b.v.Add(b.dv)
		b.w = b.w.Add(b.dw).Scale(w.angDamp)
	}
}

// integratePositions moves the active bodies by one substep.
func (w *World) integratePositions() {
	h := w.h
	for k, i := range w.active {
		sb := &w.sb[k]
		b := &w.st.Bodies[i]
		step := sb.v.Scale(h)
		b.Pos = b.Pos.Add(step)
		sb.dp = sb.dp.Add(step)
		b.Rot = b.Rot.Integrate(sb.w, h)
		sb.dq = sb.dq.AddScaled(sb.w, h)
	}
}

// warmStart applies every contact's accumulated impulses.
func (w *World) warmStart() {
	for ci := range w.cons {
		c := &w.cons[ci]
		b1 := &w.sb[c.s1]
		pn := 0.0
		a1 := c.f1.i1.Scale(c.f1.p).Add(c.f2.i1.Scale(c.f2.p)).Add(c.tw1.Scale(c.ptw))
		a2 := c.f1.i2.Scale(c.f1.p).Add(c.f2.i2.Scale(c.f2.p)).Add(c.tw2.Scale(c.ptw))
		for k := c.first; k < c.first+c.count; k++ {
			p := &w.pts[k]
			pn += p.pn
			a1 = a1.AddScaled(p.in1, p.pn)
			a2 = a2.AddScaled(p.in2, p.pn)
		}
		P := c.d.Scale(pn).Add(c.t1.Scale(c.f1.p)).Add(c.t2.Scale(c.f2.p))
		b1.v = b1.v.AddScaled(P, b1.invM)
		b1.w = b1.w.Add(a1)
		if c.s2 >= 0 {
			b2 := &w.sb[c.s2]
			b2.v = b2.v.AddScaled(P, -b2.invM)
			b2.w = b2.w.Sub(a2)
		}
	}
}

// solve runs one pass over the contacts, with the soft position correction
// when useBias is set (a gap still open closes at most within the substep
// either way).
func (w *World) solve(useBias bool) {
	for ci := range w.cons {
		c := &w.cons[ci]
		if c.s2 < 0 {
			w.solve1(c, useBias)
		} else {
			w.solve2(c, useBias)
		}
	}
}

// bias returns the velocity bias and the mass and impulse scales of a normal
// row at separation s.
func (w *World) bias(c *constraint, s float64, useBias bool) (bias, ms, is float64) {
	if s > 0 {
		return mul(s, w.invH), 1, 0
	}
	if useBias {
		return max(mul(c.soft.biasRate, min(0, s+w.cfg.Slop)), -w.cfg.MaxPushSpeed), c.soft.massScale, c.soft.impulseScale
	}
	return 0, 1, 0
}

// solve1 solves a contact whose second side does not move: the normal rows,
// then the friction at the centre.
func (w *World) solve1(c *constraint, useBias bool) {
	b1 := &w.sb[c.s1]
	v1, w1 := b1.v, b1.w
	m1 := b1.invM
	d := c.d
	ddp := d.Dot(b1.dp)
	total := 0.0
	for k := c.first; k < c.first+c.count; k++ {
		p := &w.pts[k]
		s := p.sep + ddp + p.rn1.Dot(b1.dq)
		vn := d.Dot(v1) + p.rn1.Dot(w1)
		bias, ms, is := w.bias(c, s, useBias)
		lam := -mul(mul(p.mn, ms), vn+bias) - mul(is, p.pn)
		pn := max(p.pn+lam, 0)
		lam = pn - p.pn
		p.pn = pn
		p.maxPn = max(p.maxPn, pn)
		total += pn
		v1 = v1.AddScaled(d, mul(lam, m1))
		w1 = w1.AddScaled(p.in1, lam)
	}
	lim := mul(c.mu, total)
	// Tangent pair, clamped to the disc.
	vt1 := c.t1.Dot(v1) + c.f1.r1.Dot(w1)
	vt2 := c.t2.Dot(v1) + c.f2.r1.Dot(w1)
	l1, l2 := c.friction(vt1, vt2, lim)
	v1 = v1.AddScaled(c.t1, mul(l1, m1)).AddScaled(c.t2, mul(l2, m1))
	w1 = w1.AddScaled(c.f1.i1, l1).AddScaled(c.f2.i1, l2)
	// Twist.
	if c.twistReach > 0 {
		lt := c.twist(d.Dot(w1), mul(lim, c.twistReach))
		w1 = w1.AddScaled(c.tw1, lt)
	}
	b1.v, b1.w = v1, w1
}

// solve2 is solve1 for a contact between two moving bodies.
func (w *World) solve2(c *constraint, useBias bool) {
	b1, b2 := &w.sb[c.s1], &w.sb[c.s2]
	v1, w1, v2, w2 := b1.v, b1.w, b2.v, b2.w
	m1, m2 := b1.invM, b2.invM
	d := c.d
	ddp := d.Dot(b1.dp) - d.Dot(b2.dp)
	total := 0.0
	for k := c.first; k < c.first+c.count; k++ {
		p := &w.pts[k]
		s := p.sep + ddp + p.rn1.Dot(b1.dq) - p.rn2.Dot(b2.dq)
		vn := d.Dot(v1) + p.rn1.Dot(w1) - d.Dot(v2) - p.rn2.Dot(w2)
		bias, ms, is := w.bias(c, s, useBias)
		lam := -mul(mul(p.mn, ms), vn+bias) - mul(is, p.pn)
		pn := max(p.pn+lam, 0)
		lam = pn - p.pn
		p.pn = pn
		p.maxPn = max(p.maxPn, pn)
		total += pn
		v1 = v1.AddScaled(d, mul(lam, m1))
		w1 = w1.AddScaled(p.in1, lam)
		v2 = v2.AddScaled(d, -mul(lam, m2))
		w2 = w2.AddScaled(p.in2, -lam)
	}
	lim := mul(c.mu, total)
	vt1 := c.t1.Dot(v1) + c.f1.r1.Dot(w1) - c.t1.Dot(v2) - c.f1.r2.Dot(w2)
	vt2 := c.t2.Dot(v1) + c.f2.r1.Dot(w1) - c.t2.Dot(v2) - c.f2.r2.Dot(w2)
	l1, l2 := c.friction(vt1, vt2, lim)
	v1 = v1.AddScaled(c.t1, mul(l1, m1)).AddScaled(c.t2, mul(l2, m1))
	w1 = w1.AddScaled(c.f1.i1, l1).AddScaled(c.f2.i1, l2)
	v2 = v2.AddScaled(c.t1, -mul(l1, m2)).AddScaled(c.t2, -mul(l2, m2))
	w2 = w2.AddScaled(c.f1.i2, -l1).AddScaled(c.f2.i2, -l2)
	if c.twistReach > 0 {
		lt := c.twist(d.Dot(w1)-d.Dot(w2), mul(lim, c.twistReach))
		w1 = w1.AddScaled(c.tw1, lt)
		w2 = w2.AddScaled(c.tw2, -lt)
	}
	b1.v, b1.w = v1, w1
	b2.v, b2.w = v2, w2
}

// friction updates the accumulated tangent impulses for relative tangent
// velocities vt1, vt2, keeping them in the disc of radius lim, and returns
// the impulses to apply.
func (c *constraint) friction(vt1, vt2, lim float64) (float64, float64) {
	n1, n2 := c.f1.p-mul(c.f1.m, vt1), c.f2.p-mul(c.f2.m, vt2)
	if l2 := mul(n1, n1) + mul(n2, n2); l2 > mul(lim, lim) {
		f := lim / sqrt(l2)
		n1, n2 = mul(n1, f), mul(n2, f)
	}
	l1, l2 := n1-c.f1.p, n2-c.f2.p
	c.f1.p, c.f2.p = n1, n2
	return l1, l2
}

// twist updates the accumulated twist impulse for the relative spin wn about
// the normal, keeping it within ±lim, and returns the impulse to apply.
func (c *constraint) twist(wn, lim float64) float64 {
	np := clamp(c.ptw-mul(c.mtw, wn), -lim, lim)
	l := np - c.ptw
	c.ptw = np
	return l
}

// restitution bounces the points that approached faster than
// Config.RestitutionSpeed before the step and pushed during it, using the
// normal velocity they had before the step (and so before warm starting).
func (w *World) restitution() {
	thr := -w.cfg.RestitutionSpeed
	var zero solverBody
	for ci := range w.cons {
		c := &w.cons[ci]
		if c.e == 0 {
			continue
		}
		b1 := &w.sb[c.s1]
		b2 := &zero
		two := c.s2 >= 0
		if two {
			b2 = &w.sb[c.s2]
		}
		d := c.d
		for k := c.first; k < c.first+c.count; k++ {
			p := &w.pts[k]
			if p.relVel > thr || p.maxPn == 0 {
				continue
			}
			vn := d.Dot(b1.v) + p.rn1.Dot(b1.w)
			if two {
				vn -= d.Dot(b2.v) + p.rn2.Dot(b2.w)
			}
			lam := -mul(p.mn, vn+mul(c.e, p.relVel))
			np := max(p.pn+lam, 0)
			lam = np - p.pn
			p.pn = np
			b1.v = b1.v.AddScaled(d, mul(lam, b1.invM))
			b1.w = b1.w.AddScaled(p.in1, lam)
			if two {
				b2.v = b2.v.AddScaled(d, -mul(lam, b2.invM))
				b2.w = b2.w.AddScaled(p.in2, -lam)
			}
		}
	}
}

// tangents returns two unit vectors perpendicular to the unit normal n and to
// each other, chosen the same way on every path.
func tangents(n Vec3) (Vec3, Vec3) {
	ref := Vec3{0, 1, 0}
	if n.Y > 0.9 || n.Y < -0.9 {
		ref = Vec3{1, 0, 0}
	}
	t1 := n.Cross(ref)
	t1 = t1.Scale(1 / t1.Len())
	return t1, n.Cross(t1)
}
