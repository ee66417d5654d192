package physics

// Extra relax passes under a heavy load. A heavy box on a light one is an
// inverted pendulum on the light box's ground contact, and the step leaves
// that rocking mode undamped unless its impulses converge: with two relax
// passes a substep and the shock pass (shock.go), the residual of a
// Gauss-Seidel that has not converged through the light body is fed back
// each substep and grows from rounding until the light box is squeezed
// out (1000 kg on 1 kg at 15 s). The growth follows the number of relax
// passes of the contacts involved; eight passes stop it. The measurements
// behind these numbers are in docs/engine.md ("A heavy load on a light
// box").
//
// So the contacts that touch a body bearing a heavy load (the lower body
// of a weight-bearing contact whose upper body is at least heavyRatio
// times heavier: the pair and the light box's ground contact) get
// heavyRelax more relax passes in each substep, after the others and
// before the shock pass; every other contact, and so every scene of
// bodies of like masses, pays only a look at two flags per contact and
// pass. Which contacts those are comes from each contact's own bodies and
// normal, and the passes are a serial stage in key order (stages.go), so
// every worker count and partial replay give the same bits.

// markHeavy marks c's lower body as bearing a heavy load when c is
// weight-bearing (c.shock set) and its upper body is at least heavyRatio
// times heavier.
func (w *World) markHeavy(c *constraint) {
	lower, upper, lo := c.m1, c.m2, c.s1 // inverse masses
	switch c.shock {
	case shockNone:
		return
	case shockS2:
		lower, upper, lo = c.m2, c.m1, c.s2
	}
	if lower >= mul(heavyRatio, upper) {
		w.ctx.sb[lo].bears = true
	}
}

// nearHeavy reports whether c touches a body bearing a heavy load.
func (w *World) nearHeavy(c *constraint) bool {
	return w.ctx.sb[c.s1].bears || (c.s2 >= 0 && w.ctx.sb[c.s2].bears)
}

// relaxHeavy runs the heavyRelax extra passes over the contacts near a
// heavily loaded body, in key order, with the relax pass's constants k.
func (w *World) relaxHeavy(k *solveConst) {
	for r := 0; r < heavyRelax; r++ {
		for ci := range w.ctx.cons {
			if c := &w.ctx.cons[ci]; w.nearHeavy(c) {
				w.solveContact(c, k)
			}
		}
	}
}
