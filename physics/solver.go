package physics

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

// mobile reports whether body i takes part in the solve as a moving body.
func (w *World) mobile(i int32) bool { return i != Ground && !w.shapes[i].static }

// prepare computes the rows of every contact, picks up warm-start impulses
// from the cache of the previous step and applies them.
func (w *World) prepare() {
	dt := w.cfg.Dt
	old := w.st.Contacts
	o := 0
	for k := range w.manifold {
		c := &w.manifold[k]
		t1, t2 := tangents(c.n)
		dirs := [3]Vec3{c.n, t1, t2}
		ma, mb := w.mobile(c.a), w.mobile(c.b)
		c.ma, c.mb = ma, mb
		if ma {
			c.invMa = w.shapes[c.a].invMass
		}
		if mb {
			c.invMb = w.shapes[c.b].invMass
		}
		var rA, rB Vec3
		rA = c.p.Sub(w.st.Bodies[c.a].Pos)
		if c.b != Ground {
			rB = c.p.Sub(w.st.Bodies[c.b].Pos)
		}
		for r := range c.rows {
			ro := &c.rows[r]
			*ro = row{d: dirs[r]}
			k := 0.0
			if ma {
				ro.rAxd = rA.Cross(ro.d)
				ro.iA = w.invI[c.a].MulVec(ro.rAxd)
				k += c.invMa + ro.rAxd.Dot(ro.iA)
			}
			if mb {
				ro.rBxd = rB.Cross(ro.d)
				ro.iB = w.invI[c.b].MulVec(ro.rBxd)
				k += c.invMb + ro.rBxd.Dot(ro.iB)
			}
			if k > 0 {
				ro.m = 1 / k
			}
		}

		// Target normal velocity: close a gap at most within this step
		// (speculative contact), push out deep penetration gently, bounce
		// off fast approaches.
		if c.sep > 0 {
			c.bias = -c.sep / dt
		} else if pen := -c.sep - w.cfg.Slop; pen > 0 {
			c.bias = mul(w.cfg.Baumgarte, pen) / dt
		}
		if vn := w.relVel(c, &c.rows[0]); vn < -w.cfg.RestitutionSpeed && c.e > 0 {
			c.bias = max(c.bias, -mul(c.e, vn))
		}

		// Warm start: both lists are in key order, so one merge walk finds
		// the previous step's impulses for the same pair and feature.
		key := contactKey(c.a, c.b, c.feature)
		for o < len(old) && old[o].key() < key {
			o++
		}
		if o < len(old) && old[o].key() == key {
			c.rows[0].p, c.rows[1].p, c.rows[2].p = old[o].Pn, old[o].Pt1, old[o].Pt2
			for r := range c.rows {
				w.applyRow(c, &c.rows[r], c.rows[r].p)
			}
		}
	}
}

// relVel returns the relative velocity of the contact's bodies along the
// row; a body that does not move counts as at rest, as in the solver.
func (w *World) relVel(c *contact, ro *row) float64 {
	var v float64
	if c.ma {
		a := &w.st.Bodies[c.a]
		v = ro.d.Dot(a.Vel) + ro.rAxd.Dot(a.AngVel)
	}
	if c.mb {
		b := &w.st.Bodies[c.b]
		v -= ro.d.Dot(b.Vel) + ro.rBxd.Dot(b.AngVel)
	}
	return v
}

// applyRow applies the impulse lambda along the row: +lambda to a, -lambda
// to b.
func (w *World) applyRow(c *contact, ro *row, lambda float64) {
	if c.ma {
		a := &w.st.Bodies[c.a]
		a.Vel = a.Vel.AddScaled(ro.d, mul(lambda, c.invMa))
		a.AngVel = a.AngVel.AddScaled(ro.iA, lambda)
	}
	if c.mb {
		b := &w.st.Bodies[c.b]
		b.Vel = b.Vel.AddScaled(ro.d, -mul(lambda, c.invMb))
		b.AngVel = b.AngVel.AddScaled(ro.iB, -lambda)
	}
}

// solve runs the sequential-impulse iterations: for every contact in key
// order, the two friction rows (bounded by mu times the normal impulse) and
// then the normal row (impulse kept non-negative). Each contact loads the
// velocities of its bodies once, updates them row by row and stores them.
// A contact against the ground or a static box, the common case, takes a
// shorter path with the same arithmetic for body a.
func (w *World) solve() {
	for it := 0; it < w.cfg.Iterations; it++ {
		for k := range w.manifold {
			c := &w.manifold[k]
			if c.mb {
				w.solvePair(c)
				continue
			}
			a := &w.st.Bodies[c.a]
			va, wa := a.Vel, a.AngVel
			limit := mul(c.mu, c.rows[0].p)
			for r := 1; r < 3; r++ {
				ro := &c.rows[r]
				v := ro.d.Dot(va) + ro.rAxd.Dot(wa)
				np := clamp(ro.p-mul(ro.m, v), -limit, limit)
				lambda := np - ro.p
				ro.p = np
				va = va.AddScaled(ro.d, mul(lambda, c.invMa))
				wa = wa.AddScaled(ro.iA, lambda)
			}
			ro := &c.rows[0]
			v := ro.d.Dot(va) + ro.rAxd.Dot(wa)
			np := ro.p - mul(ro.m, v-c.bias)
			if np < 0 {
				np = 0
			}
			lambda := np - ro.p
			ro.p = np
			a.Vel = va.AddScaled(ro.d, mul(lambda, c.invMa))
			a.AngVel = wa.AddScaled(ro.iA, lambda)
		}
	}
}

// solvePair solves one contact between two moving bodies (or a static a and
// a moving b): rows 1 and 2 (friction), then row 0 (normal).
func (w *World) solvePair(c *contact) {
	var zero BodyState
	a, b := &w.st.Bodies[c.a], &w.st.Bodies[c.b]
	if !c.ma {
		a = &zero
	}
	va, wa, vb, wb := a.Vel, a.AngVel, b.Vel, b.AngVel
	for r := 1; r <= 3; r++ {
		ro := &c.rows[r%3]
		v := ro.d.Dot(va) + ro.rAxd.Dot(wa) - (ro.d.Dot(vb) + ro.rBxd.Dot(wb))
		var np float64
		if r < 3 {
			limit := mul(c.mu, c.rows[0].p)
			np = clamp(ro.p-mul(ro.m, v), -limit, limit)
		} else if np = ro.p - mul(ro.m, v-c.bias); np < 0 {
			np = 0
		}
		lambda := np - ro.p
		ro.p = np
		if c.ma {
			va = va.AddScaled(ro.d, mul(lambda, c.invMa))
			wa = wa.AddScaled(ro.iA, lambda)
		}
		vb = vb.AddScaled(ro.d, -mul(lambda, c.invMb))
		wb = wb.AddScaled(ro.iB, -lambda)
	}
	if c.ma {
		a.Vel, a.AngVel = va, wa
	}
	b.Vel, b.AngVel = vb, wb
}

// storeCache writes this step's contacts and their impulses into the state.
func (w *World) storeCache() {
	w.st.Contacts = w.st.Contacts[:0]
	for k := range w.manifold {
		c := &w.manifold[k]
		w.st.Contacts = append(w.st.Contacts, ContactState{
			A: c.a, B: c.b, Feature: c.feature, Normal: c.n,
			Pn: c.rows[0].p, Pt1: c.rows[1].p, Pt2: c.rows[2].p,
		})
	}
}
