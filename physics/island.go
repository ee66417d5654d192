package physics

// Islands are the groups of dynamic bodies linked by contacts. They are not
// kept between steps: the step rebuilds them from its contacts with a
// union-find over solver indices (roots are the smallest index, so the
// result does not depend on the order of the unions), and the contact cache
// in the state links the members of a sleeping island.

// find returns the root of k, halving the path.
func find(uf []int32, k int32) int32 {
	for uf[k] != k {
		uf[k] = uf[uf[k]]
		k = uf[k]
	}
	return k
}

// union joins the sets of a and b under the smaller root.
func union(uf []int32, a, b int32) {
	ra, rb := find(uf, a), find(uf, b)
	if ra < rb {
		uf[rb] = ra
	} else if rb < ra {
		uf[ra] = rb
	}
}

// wakeIslands wakes every sleeping body that the contact cache links,
// through other dynamic bodies, to an awake one: a body woken by a force,
// an impulse, SetBody, SetEnabled or a contact wakes its whole island
// before the step moves anything. It does nothing unless the cache holds a
// contact between an awake and a sleeping body.
func (w *World) wakeIslands() {
	bodies := w.st.Bodies
	linked := func(c *ContactState) bool {
		return c.B != Ground && !w.shapes[c.A].static && !w.shapes[c.B].static &&
			!bodies[c.A].Disabled && !bodies[c.B].Disabled
	}
	need := false
	for k := range w.st.Contacts {
		c := &w.st.Contacts[k]
		if linked(c) && bodies[c.A].Asleep != bodies[c.B].Asleep {
			need = true
			break
		}
	}
	if !need {
		return
	}
	n := len(bodies)
	uf := w.ctx.uf[:0]
	for i := 0; i < n; i++ {
		uf = append(uf, int32(i))
	}
	w.ctx.uf = uf
	for k := range w.st.Contacts {
		if c := &w.st.Contacts[k]; linked(c) {
			union(uf, c.A, c.B)
		}
	}
	// awake[root] is 1 when the root's island holds an awake body (minRest
	// is scratch here).
	awake := w.ctx.minRest[:0]
	for i := 0; i < n; i++ {
		awake = append(awake, 0)
	}
	w.ctx.minRest = awake
	for i := 0; i < n; i++ {
		if w.Awake(i) {
			awake[find(uf, int32(i))] = 1
		}
	}
	for i := 0; i < n; i++ {
		if bodies[i].Asleep && awake[find(uf, int32(i))] == 1 {
			w.wakeTouched(i)
		}
	}
}

// sleepIslands updates the rest counts of the active bodies and puts to
// sleep each island whose bodies have all been at rest for
// Config.SleepTicks steps: their velocities become zero and the step skips
// them until they are woken.
func (w *World) sleepIslands() {
	n := len(w.ctx.active)
	if w.cfg.NoSleep {
		for _, i := range w.ctx.active {
			w.st.Bodies[i].Rest = 0
		}
		return
	}
	uf := w.ctx.uf[:0]
	rest := w.ctx.minRest[:0]
	for k := 0; k < n; k++ {
		uf = append(uf, int32(k))
		rest = append(rest, ^uint32(0))
	}
	w.ctx.uf, w.ctx.minRest = uf, rest
	for ci := range w.ctx.cons {
		if c := &w.ctx.cons[ci]; c.s2 >= 0 {
			union(uf, c.s1, c.s2)
		}
	}
	lim := w.cfg.SleepSpeed
	for k, i := range w.ctx.active {
		b := &w.st.Bodies[i]
		speed := b.Vel.Len() + mul(b.AngVel.Len(), w.shapes[i].radius)
		if speed < lim {
			if b.Rest < ^uint32(0) {
				b.Rest++
			}
		} else {
			b.Rest = 0
		}
		r := find(uf, int32(k))
		rest[r] = min(rest[r], b.Rest)
	}
	ticks := uint32(w.cfg.SleepTicks)
	for k, i := range w.ctx.active {
		if rest[find(uf, int32(k))] >= ticks {
			b := &w.st.Bodies[i]
			b.Asleep, b.Vel, b.AngVel = true, Vec3{}, Vec3{}
			w.derive(int(i))
		}
	}
}
