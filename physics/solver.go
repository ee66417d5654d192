package physics

// The solver is Box2D v3's soft step, in 3D: once per step the contacts are
// prepared (collide.go); then each of Config.Iterations substeps integrates
// velocities, warm-starts every contact with its accumulated impulses, solves
// the contacts with soft position correction, integrates positions and
// relaxes (solves again without the position correction, so that the push
// out of an overlap does not become a bounce); after the substeps comes
// restitution and the impulses are stored for the next step. Each stage is a
// loop of its own over all contacts in key order.

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
}

// cpoint is one contact point: its rows (normal, two tangents) with the
// lever arms crossed with the direction, the inverse inertia applied to
// those, the effective masses, and the accumulated impulses.
type cpoint struct {
	feature      uint32
	sep          float64 // separation at the start of the step
	relVel       float64 // normal velocity before the step, for restitution
	rn1, rn2     Vec3    // r1 × d, r2 × d
	in1, in2     Vec3    // invI1 (r1 × d), invI2 (r2 × d)
	ra1, rb1     Vec3    // r1 × t1, r2 × t1
	ia1, ib1     Vec3
	ra2, rb2     Vec3 // r1 × t2, r2 × t2
	ia2, ib2     Vec3
	mn, mt1, mt2 float64
	pn, pt1, pt2 float64
	maxPn        float64
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
		v1, w1 := b1.v, b1.w
		m1 := b1.invM
		pts := w.pts[c.first : c.first+c.count]
		if c.s2 < 0 {
			for k := range pts {
				p := &pts[k]
				P := c.d.Scale(p.pn).Add(c.t1.Scale(p.pt1)).Add(c.t2.Scale(p.pt2))
				v1 = v1.AddScaled(P, m1)
				w1 = w1.Add(p.in1.Scale(p.pn)).Add(p.ia1.Scale(p.pt1)).Add(p.ia2.Scale(p.pt2))
			}
			b1.v, b1.w = v1, w1
			continue
		}
		b2 := &w.sb[c.s2]
		v2, w2 := b2.v, b2.w
		m2 := b2.invM
		for k := range pts {
			p := &pts[k]
			P := c.d.Scale(p.pn).Add(c.t1.Scale(p.pt1)).Add(c.t2.Scale(p.pt2))
			v1 = v1.AddScaled(P, m1)
			w1 = w1.Add(p.in1.Scale(p.pn)).Add(p.ia1.Scale(p.pt1)).Add(p.ia2.Scale(p.pt2))
			v2 = v2.AddScaled(P, -m2)
			w2 = w2.Sub(p.in2.Scale(p.pn)).Sub(p.ib1.Scale(p.pt1)).Sub(p.ib2.Scale(p.pt2))
		}
		b1.v, b1.w = v1, w1
		b2.v, b2.w = v2, w2
	}
}

// solve runs one pass over the contacts: for each, the normal rows (with
// the soft position correction when useBias is set; a gap still open closes
// at most within the substep either way), then the friction rows, clamped
// to the disc of radius mu times the point's normal impulse.
func (w *World) solve(useBias bool) {
	invH := 1 / w.h
	slop, push := w.cfg.Slop, w.cfg.MaxPushSpeed
	var zero solverBody
	for ci := range w.cons {
		c := &w.cons[ci]
		b1 := &w.sb[c.s1]
		b2 := &zero
		if c.s2 >= 0 {
			b2 = &w.sb[c.s2]
		}
		two := c.s2 >= 0
		v1, w1, v2, w2 := b1.v, b1.w, b2.v, b2.w
		m1, m2 := b1.invM, b2.invM
		d := c.d
		ddp := d.Dot(b1.dp) - d.Dot(b2.dp)
		pts := w.pts[c.first : c.first+c.count]
		for k := range pts {
			p := &pts[k]
			s := p.sep + ddp + p.rn1.Dot(b1.dq)
			vn := d.Dot(v1) + p.rn1.Dot(w1)
			if two {
				s -= p.rn2.Dot(b2.dq)
				vn -= d.Dot(v2) + p.rn2.Dot(w2)
			}
			bias, ms, is := 0.0, 1.0, 0.0
			if s > 0 {
				bias = mul(s, invH)
			} else if useBias {
				bias = max(mul(c.soft.biasRate, min(0, s+slop)), -push)
				ms, is = c.soft.massScale, c.soft.impulseScale
			}
			lam := -mul(mul(p.mn, ms), vn+bias) - mul(is, p.pn)
			np := max(p.pn+lam, 0)
			lam = np - p.pn
			p.pn = np
			p.maxPn = max(p.maxPn, np)
			v1 = v1.AddScaled(d, mul(lam, m1))
			w1 = w1.AddScaled(p.in1, lam)
			if two {
				v2 = v2.AddScaled(d, -mul(lam, m2))
				w2 = w2.AddScaled(p.in2, -lam)
			}
		}
		t1, t2 := c.t1, c.t2
		for k := range pts {
			p := &pts[k]
			vt1 := t1.Dot(v1) + p.ra1.Dot(w1)
			vt2 := t2.Dot(v1) + p.ra2.Dot(w1)
			if two {
				vt1 -= t1.Dot(v2) + p.rb1.Dot(w2)
				vt2 -= t2.Dot(v2) + p.rb2.Dot(w2)
			}
			n1, n2 := p.pt1-mul(p.mt1, vt1), p.pt2-mul(p.mt2, vt2)
			lim := mul(c.mu, p.pn)
			if l2 := mul(n1, n1) + mul(n2, n2); l2 > mul(lim, lim) {
				f := lim / sqrt(l2)
				n1, n2 = mul(n1, f), mul(n2, f)
			}
			l1, l2 := n1-p.pt1, n2-p.pt2
			p.pt1, p.pt2 = n1, n2
			v1 = v1.AddScaled(t1, mul(l1, m1)).AddScaled(t2, mul(l2, m1))
			w1 = w1.AddScaled(p.ia1, l1).AddScaled(p.ia2, l2)
			if two {
				v2 = v2.AddScaled(t1, -mul(l1, m2)).AddScaled(t2, -mul(l2, m2))
				w2 = w2.AddScaled(p.ib1, -l1).AddScaled(p.ib2, -l2)
			}
		}
		b1.v, b1.w = v1, w1
		if two {
			b2.v, b2.w = v2, w2
		}
	}
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
		pts := w.pts[c.first : c.first+c.count]
		for k := range pts {
			p := &pts[k]
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
