package physics

// The solver is Box2D v3's soft step, in 3D: once per step the contacts are
// prepared (prepare.go); then each of Config.Iterations substeps integrates
// velocities, warm-starts every contact with its accumulated impulses, solves
// the contacts with soft position correction, integrates positions and
// relaxes (solves again without the position correction, relaxIterations
// times, so that the push out of an overlap does not become a bounce, then
// once more with the lower body of each weight-bearing contact held
// still: the shock pass, shock.go); a
// gyroscopic step turns each spinning body's ω (gyro.go); after the
// substeps comes restitution and the impulses are stored for the next step.
// Each stage is a loop of its own over all contacts in key order. Each
// contact's softness holds the load it carried in the previous step
// (load.go).
//
// A contact's points each have a normal row. Friction acts at the centre of
// the points, as in Bepu: two tangent rows whose impulse is clamped to the
// disc of radius mu times the points' total normal impulse (the friction
// cone, the same in every direction), and a twist row about the normal
// clamped to that times the points' mean distance from the centre. The cache
// keeps friction per point (see storeCache), so a contact whose points
// change keeps what its remaining points carried.
//
// Layout: the inner loops read the velocities of the active bodies (vel,
// 48 bytes a body), the contacts (constraint) and their points' rows
// (cpoint); what only the preparation, restitution and the cache need lies
// elsewhere (solverBody, pointInfo). A contact's normal rows are solved
// together (block.go), or, where that block solve fails, one point after
// the other (Gauss-Seidel) on the relative normal velocity of the pair,
// which changes by the impulse times the sum of the inverse masses; the
// linear velocities change once per contact, by the sum of its points'
// impulses.

import "math"

// softness is a soft constraint's coefficients for one substep (Box2D v3's
// b2Softness): the velocity bias per metre of overlap and how the impulse is
// scaled.
// gam is impulseScale / massScale, the compliance of a row relative to its
// effective mass (block.go).
type softness struct{ biasRate, massScale, impulseScale, gam float64 }

// makeSoft returns the softness of a spring of frequency hz and damping ratio
// zeta over a substep of h seconds.
func makeSoft(hz, zeta, h float64) softness {
	return makeSoftOmega(mul(2*math.Pi, hz), zeta, h)
}

// makeSoftOmega is makeSoft for the angular frequency omega, rad/s.
func makeSoftOmega(omega, zeta, h float64) softness {
	ho := mul(h, omega)
	a1 := mul(2, zeta) + ho
	a2 := mul(ho, a1)
	a3 := 1 / (1 + a2)
	return softness{biasRate: omega / a1, massScale: mul(a2, a3), impulseScale: a3, gam: 1 / a2}
}

// bodyVel is an active body's velocities, as the solver's inner loops read
// and write them.
type bodyVel struct{ v, w Vec3 }

// solverBody is the rest of what the step keeps of an active body.
type solverBody struct {
	dv, dw Vec3    // velocity change per substep from gravity, force and torque
	dp, dq Vec3    // position moved and rotation turned (small angles) since the start of the step
	invM   float64 // inverse mass
	invI   Mat3    // world inverse inertia at the start of the step
	vp     Vec3    // velocity after gravity and force for a whole step
	rs     float64 // how far a vertex may turn about the centre this step, m
	turn   Mat3    // rotation now, kept up to date in every substep when track is set
	track  bool    // the body is in an exact contact (see exactCon)
	// carries is set when the body is the lower body of a weight-bearing
	// contact: the shock pass solves its other contacts too (shock.go).
	carries bool
	// bears is set when the body is the lower body of a weight-bearing
	// contact whose upper body is heavyRatio times heavier: its contacts
	// get heavyRelax more relax passes (heavy.go).
	bears bool
}

// exactCon is a contact whose separation is computed from the bodies' poses
// in every substep instead of from the linear motion of its points: the
// contacts of a body turning fast (its vertices may turn more than
// fastTurn in a step), where a face turns or a vertex swings along an arc
// too far for the linear estimate (a cube spinning at 9 rad/s turns 0.14
// rad a step: the arc leaves the tangent by 8 mm). Each point is a point
// of body y (fixed in it) above a plane of body x (x may be Ground).
type exactCon struct {
	ci, first int32 // the constraint; its points' exactPoint records start at first
	x, y      int32 // bodies
}

// exactPoint is a point of an exactCon: the plane's normal (towards y) and
// offset in x's frame, the point in y's frame. Its separation is
// (Rx nl)·(py + Ry pl - px) - h.
type exactPoint struct {
	nl, pl Vec3
	h      float64
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
	s1, s2       int32   // solver bodies
	first, count int32   // points: w.ctx.pts[first : first+count]
	m1, m2       float64 // inverse masses of s1 and s2 (0 when s2 < 0)
	d, t1, t2    Vec3    // normal and tangents as the solver applies them to s1
	mu           float64 // friction of the pair
	soft         softness
	f1, f2       row // friction along t1 and t2 at the centre
	tw1, tw2     Vec3
	mtw, ptw     float64 // twist: effective mass, accumulated impulse
	twistReach   float64 // mean distance of the points from the centre, m

	// A cold contact (no impulse at all) whose points are all apart is
	// skipped by a pass when its bodies cannot close the smallest gap,
	// smin, within the substep, at their centres' relative normal speed
	// plus their spins (an upper bound: the L1 norm) times reach1 and
	// reach2, the longest lever arms of its points: no point would get an
	// impulse.
	cold           bool
	smin           float64 // smallest separation of the points now
	reach1, reach2 float64 // largest |r × d| of the points, for s1 and s2

	a, b int32   // bodies, as in the cache: b may be Ground
	e    float64 // restitution of the pair

	koff    [6]float64         // the points' effective-mass matrix off its diagonal (block.go)
	null    [maxPoints]float64 // the impulses at four points that move nothing (block.go)
	hasNull bool               // null is set
	// The inverses of the points' block matrix with every row rigid, and
	// with the rows of invS.soft soft (block.go), made when first needed.
	invR, invS blockInv
	hasR, hasS bool
	// The shock pass (shock.go): which side it holds still, and the
	// inverse of the block matrix of the other side's rows.
	shock uint8
	invF  blockInv
	hasF  bool
}

// cpoint is one contact point's normal row.
type cpoint struct {
	rn1, in1 Vec3    // r1 × d, invI1 (r1 × d)
	rn2, in2 Vec3    // r2 × d, invI2 (r2 × d)
	mn, pn   float64 // effective mass, accumulated impulse
	kn       float64 // 1 / mn
	s        float64 // separation now: after the last substep's positions
	sep      float64 // separation at the start of the step
	maxPn    float64 // largest pn of the step, for restitution
	vimp     float64 // lowest normal velocity met before an impulse in a pass: the impact speed, for restitution
}

// pointInfo is what the cache and restitution need of a contact point.
type pointInfo struct {
	off     Vec3 // offset from the contact's centre, in the tangent plane
	feature uint32
}

// The functions below work on one body or one contact; the stage list
// (stages.go) runs them over blocks of bodies and of coloured contacts.

// integrateVelocity applies one substep of gravity, forces and damping to
// solver body k.
func (w *World) integrateVelocity(k int) {
	b, v := &w.ctx.sb[k], &w.ctx.vel[k]
	v.v = v.v.Add(b.dv)
	if v.w != (Vec3{}) {
		i := w.ctx.active[k]
		r := rotationMat(w.st.Bodies[i].Rot)
		v.w = gyroscopic(v.w, &r, w.shapes[i].invInertia, w.h)
	}
	v.w = v.w.Add(b.dw).Scale(w.angDamp)
}

// integratePosition moves solver body k by one substep.
func (w *World) integratePosition(k int) {
	h := w.h
	sb := &w.ctx.sb[k]
	v := &w.ctx.vel[k]
	b := &w.st.Bodies[w.ctx.active[k]]
	step := v.v.Scale(h)
	b.Pos = b.Pos.Add(step)
	sb.dp = sb.dp.Add(step)
	b.Rot = b.Rot.Integrate(v.w, h)
	sb.dq = sb.dq.AddScaled(v.w, h)
	if sb.track {
		sb.turn = rotationMat(b.Rot)
	}
}

// updateSeparation updates the separation of c's points from its bodies'
// motion since the start of the step.
func (w *World) updateSeparation(c *constraint) {
	b1 := &w.ctx.sb[c.s1]
	pts := w.ctx.pts[c.first : c.first+c.count]
	smin := math.Inf(1)
	if c.s2 < 0 {
		ddp := c.d.Dot(b1.dp)
		dq1 := b1.dq
		for k := range pts {
			p := &pts[k]
			p.s = p.sep + ddp + p.rn1.Dot(dq1)
			if p.s < smin {
				smin = p.s
			}
		}
	} else {
		b2 := &w.ctx.sb[c.s2]
		ddp := c.d.Dot(b1.dp) - c.d.Dot(b2.dp)
		dq1, dq2 := b1.dq, b2.dq
		for k := range pts {
			p := &pts[k]
			p.s = p.sep + ddp + p.rn1.Dot(dq1) - p.rn2.Dot(dq2)
			if p.s < smin {
				smin = p.s
			}
		}
	}
	c.smin = smin
}

// updateExact computes the separation of exact contact e's points from
// its bodies' poses now.
func (w *World) updateExact(e *exactCon) {
	c := &w.ctx.cons[e.ci]
	rx, px := w.poseNow(e.x)
	ry, py := w.poseNow(e.y)
	pts := w.ctx.pts[c.first : c.first+c.count]
	ex := w.ctx.exactPts[e.first : e.first+c.count]
	for q := range pts {
		n := rx.MulVec(ex[q].nl)
		pts[q].s = n.Dot(py.Add(ry.MulVec(ex[q].pl)).Sub(px)) - ex[q].h
	}
	c.smin = minSep(pts)
}

// minSep returns the smallest separation now of pts (0 for none).
func minSep(pts []cpoint) float64 {
	if len(pts) == 0 {
		return 0
	}
	m := pts[0].s
	for k := 1; k < len(pts); k++ {
		if pts[k].s < m {
			m = pts[k].s
		}
	}
	return m
}

// l1 returns |x| + |y| + |z|, at least the length of v.
func l1(v Vec3) float64 { return abs(v.X) + abs(v.Y) + abs(v.Z) }

// poseNow returns the rotation and position of body i in the current
// substep: those of the start of the step for a body that does not move,
// identity and the origin for the ground.
func (w *World) poseNow(i int32) (*Mat3, Vec3) {
	if i == Ground {
		return &identityMat, Vec3{}
	}
	if k := w.ctx.sidx[i]; k >= 0 {
		return &w.ctx.sb[k].turn, w.st.Bodies[i].Pos
	}
	return &w.rot[i], w.st.Bodies[i].Pos
}

// identityMat is the rotation of the ground.
var identityMat = Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// warmStart1 applies c's accumulated impulses.
func (w *World) warmStart1(c *constraint) {
	vel := w.ctx.vel
	if c.cold {
		return
	}
	pn := 0.0
	a1 := c.f1.i1.Scale(c.f1.p).Add(c.f2.i1.Scale(c.f2.p)).Add(c.tw1.Scale(c.ptw))
	pts := w.ctx.pts[c.first : c.first+c.count]
	P := c.t1.Scale(c.f1.p).Add(c.t2.Scale(c.f2.p))
	b1 := &vel[c.s1]
	if c.s2 < 0 {
		for k := range pts {
			p := &pts[k]
			pn += p.pn
			a1 = a1.AddScaled(p.in1, p.pn)
		}
		P = P.AddScaled(c.d, pn)
		b1.v = b1.v.AddScaled(P, c.m1)
		b1.w = b1.w.Add(a1)
		return
	}
	a2 := c.f1.i2.Scale(c.f1.p).Add(c.f2.i2.Scale(c.f2.p)).Add(c.tw2.Scale(c.ptw))
	for k := range pts {
		p := &pts[k]
		pn += p.pn
		a1 = a1.AddScaled(p.in1, p.pn)
		a2 = a2.AddScaled(p.in2, p.pn)
	}
	P = P.AddScaled(c.d, pn)
	b2 := &vel[c.s2]
	b1.v = b1.v.AddScaled(P, c.m1)
	b1.w = b1.w.Add(a1)
	b2.v = b2.v.AddScaled(P, -c.m2)
	b2.w = b2.w.Sub(a2)
}

// solveConst returns the constants of a pass, with the soft position
// correction when useBias is set (a gap still open closes at most within
// the substep either way).
func (w *World) solveConst(useBias bool) solveConst {
	return solveConst{invH: w.invH, slop: w.cfg.Slop, maxPush: -w.cfg.MaxPushSpeed, useBias: useBias}
}

// solveContact solves c in a pass with constants k.
func (w *World) solveContact(c *constraint, k *solveConst) {
	if c.count == 0 {
		return
	}
	if k.shock {
		if c.shock != shockNone {
			w.solveShock(c, k)
			return
		}
		if !w.ctx.sb[c.s1].carries && (c.s2 < 0 || !w.ctx.sb[c.s2].carries) {
			return // shock.go: the pass leaves this contact alone
		}
	}
	if c.s2 < 0 {
		w.solve1(c, k)
	} else {
		w.solve2(c, k)
	}
}

// solveConst is what every row of a pass shares.
type solveConst struct {
	invH, slop, maxPush float64 // maxPush is negative
	useBias             bool
	shock               bool // the shock pass (shock.go)
}

// normal solves the normal row of point p of c, whose normal velocity is
// vn, for solve1 and solve2: a gap (s > 0) may close within the substep;
// an overlap beyond the slop is pushed out softly, at most at
// MaxPushSpeed, when useBias is set; the accumulated impulse is never
// negative. It returns the impulse applied now and the accumulated one.
func (k *solveConst) normal(c *constraint, p *cpoint, vn float64) (lam, pn float64) {
	p.vimp = min(p.vimp, vn)
	if s := p.s; s > 0 {
		lam = -mul(p.mn, vn+mul(s, k.invH))
	} else if k.useBias {
		bias := 0.0
		if t := s + k.slop; t < 0 {
			bias = mul(c.soft.biasRate, t)
			if bias < k.maxPush {
				bias = k.maxPush
			}
		}
		// -x*y - z as (-x)*y + (-z): the same bits (negation is exact).
		lam = mulAddProbe(-mul(p.mn, c.soft.massScale), vn+bias, -mul(c.soft.impulseScale, p.pn))
	} else {
		lam = -mul(p.mn, vn)
	}
	pn = p.pn + lam
	if pn < 0 {
		pn = 0
	}
	lam = pn - p.pn
	p.pn = pn
	if pn > p.maxPn {
		p.maxPn = pn
	}
	return lam, pn
}

// solve1 solves a contact whose second side does not move: the normal rows,
// then the friction at the centre.
func (w *World) solve1(c *constraint, k *solveConst) {
	b1 := &w.ctx.vel[c.s1]
	v1, w1 := b1.v, b1.w
	m1 := c.m1
	d := c.d
	dn := d.Dot(v1) // normal velocity of s1's centre
	if c.cold && c.smin > 0 && mul(l1(w1), c.reach1)-dn < mul(c.smin, k.invH) {
		return
	}
	total, sum := 0.0, 0.0
	pts := w.ctx.pts[c.first : c.first+c.count]
	pts = pts[:min(len(pts), maxPoints)] // no more: the compiler drops the bounds checks
	var vn, lam [maxPoints]float64
	for i := range pts {
		vn[i] = dn + pts[i].rn1.Dot(w1)
	}
	if len(pts) > 1 && k.block(c, pts, &vn, &lam) {
		for i := range pts {
			total += pts[i].pn
			sum += lam[i]
			w1 = w1.AddScaled(pts[i].in1, lam[i])
		}
	} else {
		for i := range pts {
			p := &pts[i]
			vn := dn + p.rn1.Dot(w1)
			lam, pn := k.normal(c, p, vn)
			total += pn
			sum += lam
			dn += mul(lam, m1)
			w1 = w1.AddScaled(p.in1, lam)
		}
	}
	v1 = v1.AddScaled(d, mul(sum, m1))
	lim := mul(c.mu, total)
	// Tangent pair, clamped to the disc.
	vt1 := c.t1.Dot(v1) + c.f1.r1.Dot(w1)
	vt2 := c.t2.Dot(v1) + c.f2.r1.Dot(w1)
	l1, l2 := c.friction(vt1, vt2, lim)
	v1 = v1.AddScaled(c.t1.Scale(l1).AddScaled(c.t2, l2), m1)
	w1 = w1.AddScaled(c.f1.i1, l1).AddScaled(c.f2.i1, l2)
	// Twist.
	if c.twistReach > 0 {
		lt := c.twist(d.Dot(w1), mul(lim, c.twistReach))
		w1 = w1.AddScaled(c.tw1, lt)
	}
	b1.v, b1.w = v1, w1
	c.cold = total == 0 && c.f1.p == 0 && c.f2.p == 0 && c.ptw == 0
}

// solve2 is solve1 for a contact between two moving bodies.
func (w *World) solve2(c *constraint, k *solveConst) {
	b1, b2 := &w.ctx.vel[c.s1], &w.ctx.vel[c.s2]
	v1, w1, v2, w2 := b1.v, b1.w, b2.v, b2.w
	m1, m2 := c.m1, c.m2
	m12 := m1 + m2
	d := c.d
	dn := d.Dot(v1.Sub(v2)) // relative normal velocity of the centres
	if c.cold && c.smin > 0 && mul(l1(w1), c.reach1)+mul(l1(w2), c.reach2)-dn < mul(c.smin, k.invH) {
		return
	}
	total, sum := 0.0, 0.0
	pts := w.ctx.pts[c.first : c.first+c.count]
	pts = pts[:min(len(pts), maxPoints)] // no more: the compiler drops the bounds checks
	var vn, lam [maxPoints]float64
	for i := range pts {
		vn[i] = dn + pts[i].rn1.Dot(w1) - pts[i].rn2.Dot(w2)
	}
	if len(pts) > 1 && k.block(c, pts, &vn, &lam) {
		for i := range pts {
			total += pts[i].pn
			sum += lam[i]
			w1 = w1.AddScaled(pts[i].in1, lam[i])
			w2 = w2.AddScaled(pts[i].in2, -lam[i])
		}
	} else {
		for i := range pts {
			p := &pts[i]
			vn := dn + p.rn1.Dot(w1) - p.rn2.Dot(w2)
			lam, pn := k.normal(c, p, vn)
			total += pn
			sum += lam
			dn += mul(lam, m12)
			w1 = w1.AddScaled(p.in1, lam)
			w2 = w2.AddScaled(p.in2, -lam)
		}
	}
	v1 = v1.AddScaled(d, mul(sum, m1))
	v2 = v2.AddScaled(d, -mul(sum, m2))
	c.friction2(&v1, &w1, &v2, &w2, mul(c.mu, total))
	b1.v, b1.w = v1, w1
	b2.v, b2.w = v2, w2
	c.cold = total == 0 && c.f1.p == 0 && c.f2.p == 0 && c.ptw == 0
}

// friction2 solves the friction and twist of contact c between two moving
// bodies, whose velocities are v1, w1 and v2, w2, within the limit lim
// (mu times the points' normal impulse).
func (c *constraint) friction2(v1, w1, v2, w2 *Vec3, lim float64) {
	m1, m2 := c.m1, c.m2
	vr := v1.Sub(*v2)
	vt1 := c.t1.Dot(vr) + c.f1.r1.Dot(*w1) - c.f1.r2.Dot(*w2)
	vt2 := c.t2.Dot(vr) + c.f2.r1.Dot(*w1) - c.f2.r2.Dot(*w2)
	l1, l2 := c.friction(vt1, vt2, lim)
	P := c.t1.Scale(l1).AddScaled(c.t2, l2)
	*v1 = v1.AddScaled(P, m1)
	*v2 = v2.AddScaled(P, -m2)
	*w1 = w1.AddScaled(c.f1.i1, l1).AddScaled(c.f2.i1, l2)
	*w2 = w2.AddScaled(c.f1.i2, -l1).AddScaled(c.f2.i2, -l2)
	if c.twistReach > 0 {
		lt := c.twist(c.d.Dot(w1.Sub(*w2)), mul(lim, c.twistReach))
		*w1 = w1.AddScaled(c.tw1, lt)
		*w2 = w2.AddScaled(c.tw2, -lt)
	}
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
	np := c.ptw - mul(c.mtw, wn)
	if np > lim {
		np = lim
	} else if np < -lim {
		np = -lim
	}
	l := np - c.ptw
	c.ptw = np
	return l
}

// restitute bounces c's points that met each other faster than
// Config.RestitutionSpeed during the step and pushed: each leaves at e
// times its impact speed, the normal velocity it had in the substep where
// it met (cpoint.vimp), not the one from before the step, which misses
// what gravity added since (a cube dropped from 1 m would lose 12 % of its
// bounce). A contact's bouncing points are solved together (block.go), so
// that a box landing flat leaves flat.
func (w *World) restitute(c *constraint) {
	thr := -w.cfg.RestitutionSpeed
	var zero bodyVel
	if c.e == 0 {
		return
	}
	b1 := &w.ctx.vel[c.s1]
	b2 := &zero
	two := c.s2 >= 0
	if two {
		b2 = &w.ctx.vel[c.s2]
	}
	d := c.d
	pts := w.ctx.pts[c.first : c.first+c.count]
	// The bouncing points, their rows and targets.
	var idx [maxPoints]int
	var diag, rhs, pn, lam [maxPoints]float64
	var koff [6]float64
	n := 0
	for k := range pts {
		p := &pts[k]
		if p.vimp > thr || p.maxPn == 0 {
			continue
		}
		vn := d.Dot(b1.v) + p.rn1.Dot(b1.w)
		if two {
			vn -= d.Dot(b2.v) + p.rn2.Dot(b2.w)
		}
		idx[n] = k
		diag[n], rhs[n], pn[n] = p.kn+mul(p.kn, blockEps), -(vn + mul(c.e, p.vimp)), p.pn
		for q := 0; q < n; q++ {
			koff[offIndex[q][n]] = kOff(&c.koff, idx[q], k)
		}
		n++
	}
	if n == 0 {
		return
	}
	var null *[maxPoints]float64
	if n == maxPoints && c.hasNull {
		null = &c.null
	}
	var full *blockInv
	if n == int(c.count) { // every point bounces: the rigid matrix of all of them
		full = &c.invR
		if !c.hasR {
			full.make(n, &diag, &c.koff, null)
			c.hasR = true
		}
	}
	if n == 1 || !blockSolve(n, &diag, &rhs, &pn, &koff, null, full, &lam) {
		for q := 0; q < n; q++ { // one point, or rows the block could not solve: one at a time
			p := &pts[idx[q]]
			vn := d.Dot(b1.v) + p.rn1.Dot(b1.w)
			if two {
				vn -= d.Dot(b2.v) + p.rn2.Dot(b2.w)
			}
			l := max(p.pn-mul(p.mn, vn+mul(c.e, p.vimp)), 0) - p.pn
			w.bounce(c, p, l, b1, b2, two)
		}
		return
	}
	for q := 0; q < n; q++ {
		w.bounce(c, &pts[idx[q]], lam[q], b1, b2, two)
	}
}

// bounce applies the restitution impulse lam at point p of c.
func (w *World) bounce(c *constraint, p *cpoint, lam float64, b1, b2 *bodyVel, two bool) {
	p.pn = max(p.pn+lam, 0)
	b1.v = b1.v.AddScaled(c.d, mul(lam, c.m1))
	b1.w = b1.w.AddScaled(p.in1, lam)
	if two {
		b2.v = b2.v.AddScaled(c.d, -mul(lam, c.m2))
		b2.w = b2.w.AddScaled(p.in2, -lam)
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
