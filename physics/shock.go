package physics

// Shock propagation (Erin Catto's, done in the last pass only). In
// Gauss-Seidel a heavy box's weight reaches the ground through the light
// box under it one pass at a time: solving the contact between them moves
// mostly the light box, and solving the light box's ground contact then
// stops it, so each pair of passes takes only m/(m+M) of the heavy box's
// velocity off it (1000 kg on 1 kg: a thousandth). Warm starting holds a
// steady load, but every change of it (the first steps, a settling pile)
// sinks the heavy box into the light one, and the stiff contacts that
// would hold the overlap to a few millimetres (load.go) never converge:
// the light box is squeezed out.
//
// So each substep ends with a shock pass, after the relax passes, in the
// usual key order:
//   - a weight-bearing contact between two moving bodies (its normal
//     within 45° of gravity) solves its normal rows with its lower body
//     held still, as if infinitely heavy: the upper body alone takes the
//     impulse, and stops against the lower one in one pass. Those
//     impulses start from zero and only push; they are a velocity
//     correction and leave the accumulated normal impulses, which
//     warm-start the next substep and step, alone. Its friction and twist
//     follow as in a relax pass, on both bodies (without them, the turn
//     the normal rows give a cube that overhangs the one under it walked a
//     tower of 20 set off by 1 mm 3.6 cm sideways; with them 0.2 mm);
//   - the other contacts of a body that is the lower one of such a
//     contact (solverBody.carries: the light box's ground contact) are
//     solved as in a relax pass, so that the lower body has its velocity
//     of the end of the substep when the contacts on it are solved
//     (skipping them let 1000 kg squeeze 1 kg out again);
//   - every other contact is left alone: a pile of cubes lying side by
//     side on the ground pays nothing for the pass.
//
// Why the pass is shaped so (measured, docs/engine.md): added to the
// accumulated impulses, the next warm start pushes the light box down by
// M/m times what it should and the pair bounces, and a shock in every
// relax pass launches the light box the same way; a shock pass before the
// relax passes, or in place of the second one, lets the 1000 kg box
// squeeze the light one out. The order is the contacts' key order, not height: in an
// aligned tower or a load on a box, bodies added bottom up give the
// bottom-up order that carries the weight down in one pass; in other
// piles a weight-bearing contact solved before the one under it still
// stops its upper body against the lower one's velocity of the moment,
// which is no worse than the relax pass it follows. So the pass is a
// serial stage in key order, not coloured (stages.go): in colour order the
// contacts of a tower alternate between two colours and the pass would
// carry a load down only one contact at a time. Which side a contact
// holds still, and which bodies carry, come from the contact's own normal
// and bodies, so every worker count and partial replay give the same bits.
//
// Holding the lower body still breaks the conservation of momentum of the
// pair in that pass, by design: only weight-bearing contacts under
// gravity take it (a zero-gravity collision keeps its momentum,
// solver_test.go).

// Which side of a contact a shock pass holds still (constraint.shock).
const (
	shockNone = iota // not weight-bearing, or the other side does not move
	shockS1          // s1 is the lower body
	shockS2          // s2 is the lower body
)

// shockSide returns which side of c the shock pass holds still: the lower
// body of a contact between two moving bodies whose normal is within 45°
// of gravity g.
func shockSide(c *constraint, g Vec3) uint8 {
	if c.s2 < 0 {
		return shockNone
	}
	gd := c.d.Dot(g)
	if gd == 0 || mul(gd, gd) < mul(0.5, g.Dot(g)) { // no gravity, or a normal more than 45° off it
		return shockNone
	}
	if gd < 0 { // d, towards s1, points up: s1 lies on s2
		return shockS2
	}
	return shockS1
}

// shockConst returns the constants of the shock pass: a relax pass whose
// weight-bearing contacts hold their lower body still.
func (w *World) shockConst() solveConst {
	k := w.solveConst(false)
	k.shock = true
	return k
}

// solveShock solves the normal rows of c's points together with its lower
// body held still (c.shock), in the shock pass with constants k: the
// upper body's rows alone make the block matrix (its inverse is made once
// a step, c.invF), the impulses start from zero and only push; then the
// friction and twist as in a relax pass.
func (w *World) solveShock(c *constraint, k *solveConst) {
	b1, b2 := &w.ctx.vel[c.s1], &w.ctx.vel[c.s2]
	pts := w.ctx.pts[c.first : c.first+c.count]
	up, upM, sign := b1, c.m1, 1.0 // the body that moves, and the sign of its impulse
	if c.shock == shockS1 {
		up, upM, sign = b2, c.m2, -1
	}
	dn := c.d.Dot(b1.v.Sub(b2.v))
	n := len(pts)
	var rhs, pn, diag, lam [maxPoints]float64
	var koff [6]float64
	var in [maxPoints]Vec3
	for i := range pts {
		p := &pts[i]
		rhs[i] = -(dn + p.rn1.Dot(b1.w) - p.rn2.Dot(b2.w))
		if p.s > 0 {
			rhs[i] -= mul(p.s, k.invH) // a gap may close within the substep
		}
		rn := p.rn1
		in[i] = p.in1
		if c.shock == shockS1 {
			rn, in[i] = p.rn2, p.in2
		}
		kn := upM + rn.Dot(in[i])
		diag[i] = kn + mul(kn, blockEps)
	}
	q := 0
	for i := 0; i < maxPoints-1; i++ {
		for j := i + 1; j < maxPoints; j++ {
			if j < n {
				// K_ij = upM + (r_i × d)·I⁻¹(r_j × d), I⁻¹ symmetric.
				koff[q] = upM + in[i].Dot(shockRn(c, &pts[j]))
			}
			q++
		}
	}
	if !w.shockBlock(c, n, &diag, &rhs, &pn, &koff, &lam) {
		// One point, or rows the block could not solve: one at a time.
		for i := 0; i < n; i++ {
			t := rhs[i]
			for j := 0; j < i; j++ {
				t -= mul(kOff(&koff, i, j), lam[j])
			}
			lam[i] = max(t/diag[i], 0)
		}
	}
	sum, total := 0.0, 0.0
	for i := 0; i < n; i++ {
		sum += lam[i]
		total += pts[i].pn
		up.w = up.w.AddScaled(in[i], mul(sign, lam[i]))
	}
	up.v = up.v.AddScaled(c.d, mul(mul(sign, sum), upM))
	c.friction2(&b1.v, &b1.w, &b2.v, &b2.w, mul(c.mu, total))
}

// shockRn returns r × d of point p on c's upper body.
func shockRn(c *constraint, p *cpoint) Vec3 {
	if c.shock == shockS1 {
		return p.rn2
	}
	return p.rn1
}

// shockBlock solves the shock rows of c's n points as block.go does, with
// the inverse of every point's matrix made on the first call of the step;
// when the block solve fails, by enumeration (enumBlock); false when that
// fails too (or there is one point).
func (w *World) shockBlock(c *constraint, n int, diag, rhs, pn *[maxPoints]float64, koff *[6]float64, lam *[maxPoints]float64) bool {
	if n == 1 {
		return false
	}
	var null *[maxPoints]float64
	if n == maxPoints && c.hasNull {
		null = &c.null
	}
	if !c.hasF {
		c.invF.make(n, diag, koff, null)
		c.hasF = true
	}
	var held [maxPoints]bool
	switch firstBlock(n, rhs, pn, null, &c.invF, &held, lam) {
	case blockFailed:
		return enumBlock(n, diag, rhs, pn, koff, null, lam)
	case blockMore:
		if blockRounds(1, n, diag, rhs, pn, koff, null, &c.invF, &held, lam) {
			return true
		}
		return enumBlock(n, diag, rhs, pn, koff, null, lam)
	}
	return true
}
