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
// A tall stack of like boxes is the same mode spread over many contacts:
// each soft contact gives a little under the moment of the part above it
// (load.go), so a leaning column bends, and with two relax passes its
// rocking grew until it fell. A column of 30 unit cubes, each set off 1
// cm from the one below (the drop scene's columns, its centre of mass
// well inside every face it stands on) swayed with a growing swing and
// fell at 10 s, and its top cube landed 76 m away faster than a fall from
// its height gives; in the 3000-box drop the columns on the pile's edges
// fell so from 4 s on and threw their top cubes (lean_test.go). The
// contacts under at least tallLoad such boxes therefore get the same
// extra passes.
//
// So the contacts that touch a body bearing a heavy load (the lower body
// of a weight-bearing contact whose upper body is at least heavyRatio
// times heavier, or whose points carried at least tallLoad times the
// upper body's weight in the previous step: the pair and the lower box's
// ground contact) get heavyRelax more relax passes in each substep, after
// the others and before the shock pass; every other contact, and so every
// pile of bodies of like masses less than tallLoad high, pays only a look
// at two flags per contact and pass. Which contacts those are comes from each contact's own bodies and
// normal, and the passes are a serial stage in key order (stages.go), so
// every worker count and partial replay give the same bits.

// markHeavy marks c's lower body as bearing a heavy load when c is
// weight-bearing (c.shock set) and its upper body is at least heavyRatio
// times heavier, or its points (pts) carried at least tallLoad times the
// upper body's weight (their warm-start impulses, from the state).
func (w *World) markHeavy(c *constraint, pts []cpoint) {
	lower, upper, lo := c.m1, c.m2, c.s1 // inverse masses
	switch c.shock {
	case shockNone:
		return
	case shockS2:
		lower, upper, lo = c.m2, c.m1, c.s2
	}
	if lower >= mul(heavyRatio, upper) {
		w.ctx.sb[lo].bears = true
		return
	}
	load := 0.0
	for k := range pts {
		load += pts[k].pn
	}
	// The upper body's weight over a substep is |g| h / upper.
	if mul(load, upper) >= w.tallLoad {
		w.ctx.sb[lo].bears = true
	}
}

// nearHeavy reports whether c touches a body bearing a heavy load.
func (w *World) nearHeavy(c *constraint) bool {
	return w.ctx.sb[c.s1].bears || (c.s2 >= 0 && w.ctx.sb[c.s2].bears)
}

// relaxHeavy runs the heavyRelax extra passes over the contacts near a
// heavily loaded body, in key order, with the relax pass's constants k.
// Which contacts those are does not change within the step (the flags
// are set by prepare), so one scan finds them for all the passes: their
// indices, up to heavyListLen of them, else the span from the first to
// the last, scanned again in each pass.
func (w *World) relaxHeavy(k *solveConst) {
	cons := w.ctx.cons
	var list [heavyListLen]int32
	n, lo, hi := 0, len(cons), 0
	for ci := range cons {
		if w.nearHeavy(&cons[ci]) {
			if n < len(list) {
				list[n] = int32(ci)
			}
			n++
			lo, hi = min(lo, ci), ci+1
		}
	}
	if n == 0 {
		return
	}
	listMax := heavyListLen
	if testHeavyListMax != nil {
		listMax = *testHeavyListMax
	}
	if n <= min(len(list), listMax) {
		for r := 0; r < heavyRelax; r++ {
			for _, ci := range list[:n] {
				w.solveContact(&cons[ci], k)
			}
		}
		return
	}
	for r := 0; r < heavyRelax; r++ {
		for ci := lo; ci < hi; ci++ {
			if c := &cons[ci]; w.nearHeavy(c) {
				w.solveContact(c, k)
			}
		}
	}
}

// heavyListLen is how many contacts near a heavy load relaxHeavy lists on
// its stack (1 KB).
const heavyListLen = 256
