package physics

// Load-independent contacts. A soft contact (Box2D v3's soft step) leaks a
// share of its accumulated impulse P in every pass (impulseScale P, that is
// gam P in effective-mass terms: block.go), and its bias must push that
// back: under a steady load it settles at the overlap x beyond the slop
// where
//
//	gam P = m biasRate x,   so   x = gam P / (m biasRate)
//
// with m the contact's effective mass. P grows with what stands on the
// contact while m does not: a heavy box on a light one sinks into it in
// proportion to the mass ratio (1000 kg on 1 kg: 28 cm at 30 Hz), and the
// bottom of a tall tower in proportion to its height. Each contact
// therefore gets the compliance that holds its load at loadOverlap,
//
//	gam = m biasRate loadOverlap / P,
//
// when that is below the configured one (and no less than a sixth of
// it, or a 64th between two moving bodies: maxStiffen), with P the
// impulse its points carried in the previous step (the warm-start impulses of the cache, part
// of the state, so the rule is the same on every path and depends on
// nothing outside the contact's island) and 1/m ≈ 1/m1 + 1/m2 (a corner's
// angular terms make each point's mass smaller, and its share of the
// impulse smaller by about as much). The push-out speed (biasRate) stays
// what the configuration asks; only the leak shrinks, towards the rigid
// contact. massScale and impulseScale follow as 1/(1+gam) and gam/(1+gam).
// A smaller leak also means that a pass no longer drops a heavy load's
// impulse for the relax passes to rebuild, which is what sank a 100 kg box
// into a 1 kg one (Config.RelaxIterations adds passes for the piles whose
// impulses must travel further).

// loadSoft makes c's softness hold the load its points pts carry (see
// above).
func (w *World) loadSoft(c *constraint, pts []cpoint) {
	load := 0.0
	for k := range pts {
		load += pts[k].pn
	}
	if load <= 0 {
		return
	}
	gam := mul(loadOverlap, c.soft.biasRate) / mul(load, c.m1+c.m2)
	limit := float64(maxStiffen)
	if c.s2 >= 0 {
		limit = maxStiffenPair
	}
	gam = max(gam, c.soft.gam/limit)
	if gam >= c.soft.gam {
		return
	}
	g1 := 1 + gam
	c.soft.gam, c.soft.massScale, c.soft.impulseScale = gam, 1/g1, gam/g1
}
