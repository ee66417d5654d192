package physics

// Extra relax passes under a heavy load. A heavy box on a light one is an
// inverted pendulum on the light box's ground contact, and the step leaves
// that rocking mode undamped unless its impulses converge: with the two
// relax passes of every contact and the shock pass (shock.go), 1000 kg on
// 1 kg rocked with a period of about 34 steps, growing by e every 30 steps
// from rounding (tilt 1e-13 rad at 1 s, 1e-6 at 11 s), until the light
// box was squeezed out at 15 s; 300 kg on 1 kg at 60 s, 200 kg walked
// 0.8 mm in 60 s. The heavy box's tilt and the light box's grew together
// (the light box's about 2.5 times the heavy one's, both the same way),
// the pair sticking, the light box rocking on its ground contact.
//
// Measured, 1000 kg on 1 kg (validation_test.go's measureLoad), by what
// was switched off or changed, against 8 cm aside at 15 s as it was: the
// gyroscopic step changes nothing (the bits are the same without it); the
// shock pass's friction off, 7 cm aside at 12.5 s; the shock pass in the
// last substep only, 0.78 m at 15 s; without the upper body's angular
// impulse in the shock pass, 7 cm at 14 s; no clip tolerance (clip.go),
// out within 10 s; the stiffening caps of load.go (maxStiffen 4 to 6,
// maxStiffenPair 16 to 128), out in every combination (measured before
// this file: 1.1 to 2.3 m aside at 30 s). The growth follows
// the number of relax passes of every contact: 1, 25 cm at 15 s; 3, 7e-6
// m at 15 s and out at 30 s; 4, 14 cm at 30 s; 6, still growing (6e-9 m
// at 60 s, by e every 9 s); 8 and 12, no growth (3.5e-13 m at 60 s). The
// rocking is the residual of a Gauss-Seidel that has not converged
// through a light body, fed back each substep.
//
// So the contacts that touch a body bearing a heavy load (the lower body
// of a weight-bearing contact whose upper body is at least heavyRatio
// times heavier: the pair and the light box's ground contact) get
// heavyRelax more relax passes in each substep, after the others and
// before the shock pass; every other contact, and so every scene of
// bodies of like masses, pays only a look at two flags per contact and
// pass. Which contacts those are comes from each contact's own bodies and normal, so the step by
// island and partial replay stay exact.

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
func (w *World) relaxHeavy(cons []int32, k *solveConst) {
	for r := 0; r < heavyRelax; r++ {
		for _, ci := range cons {
			if c := &w.ctx.cons[ci]; w.nearHeavy(c) {
				w.solveContact(c, k)
			}
		}
	}
}

// relaxHeavyAll is relaxHeavy over every contact of the step.
func (w *World) relaxHeavyAll() {
	k := w.solveConst(false)
	for r := 0; r < heavyRelax; r++ {
		for ci := range w.ctx.cons {
			if c := &w.ctx.cons[ci]; w.nearHeavy(c) {
				w.solveContact(c, &k)
			}
		}
	}
}
