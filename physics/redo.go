package physics

// redo is a pair of boxes that close in on each other fast (by more than
// redoMin in a step): its contacts are made again from the poses at the
// start of every substep, so that a face or a corner that comes within
// reach during the step (a cube sliding onto a ramp, or spinning into a
// wall) has a contact before it gets in. The pair owns two constraints
// (the face contact and the edge contact boxBox may find), each with room
// for four points; a constraint without points is skipped.
type redo struct {
	a, b  int32
	ci    int32   // its constraints: w.ctx.cons[ci], w.ctx.cons[ci+1]
	first int32   // their points: w.ctx.pts[first : first+8]
	cl    float64 // closing distance in the whole step
}

// addRedo adds the constraints of redo pair (a, b) with the contacts out
// found at the start of the step.
func (w *World) addRedo(a, b int32, cl float64, out *manifolds, o *int) {
	r := redo{a: a, b: b, ci: int32(len(w.ctx.cons)), first: int32(len(w.ctx.pts)), cl: cl}
	for k := 0; k < 8; k++ {
		w.ctx.pts = append(w.ctx.pts, cpoint{})
		w.ctx.info = append(w.ctx.info, pointInfo{})
	}
	for m := 0; m < 2; m++ {
		w.ctx.cons = append(w.ctx.cons, constraint{a: a, b: b, s1: -1, s2: -1})
		c := &w.ctx.cons[len(w.ctx.cons)-1]
		if m < out.m {
			w.prepare(c, r.first+int32(4*m), a, b, out.n[m], out.pts[m][:out.k[m]], w.st.Contacts, o)
		} else {
			w.empty(c, r.first+int32(4*m))
		}
	}
	for _, i := range [2]int32{a, b} {
		if k := w.ctx.sidx[i]; k >= 0 {
			w.ctx.sb[k].track = true
		}
	}
	w.ctx.redo = append(w.ctx.redo, r)
}

// redoPair makes the contacts of redo pair r again from the poses at the
// start of substep s (s > 0), for the closing distance left in the step,
// with old and vimp as scratch, and reports whether it found any: then
// its sides that do not move must be woken (wakeRedo). The impulses of
// the points whose features were there before carry over (friction as
// the cache would keep it), so that warm starting goes on; a point's
// separation at the start of the step is set back so that the solver's
// linear estimate gives the one found now. The stage list runs the redo
// pairs serially, in redo order (stages.go).
func (w *World) redoPair(r *redo, s int, oldBuf *[]ContactState, vimpBuf *[]float64) bool {
	left := float64(w.cfg.Iterations-s) / float64(w.cfg.Iterations)
	margin := w.cfg.Margin
	var out manifolds
	old := (*oldBuf)[:0]
	vimp := (*vimpBuf)[:0]
	for m := int32(0); m < 2; m++ {
		c := &w.ctx.cons[r.ci+m]
		old = w.appendContacts(old, c)
		for q := c.first; q < c.first+c.count; q++ {
			vimp = append(vimp, w.ctx.pts[q].vimp)
		}
	}
	*oldBuf, *vimpBuf = old, vimp
	A, B := w.boxNow(r.a), w.boxNow(r.b)
	cl := mul(r.cl, left)
	boxBox(&A, &B, margin+cl, cl, &out)
	o := 0
	for m := int32(0); m < 2; m++ {
		c := &w.ctx.cons[r.ci+m]
		if int(m) >= out.m {
			w.empty(c, r.first+4*m)
			continue
		}
		w.prepare(c, r.first+4*m, r.a, r.b, out.n[m], out.pts[m][:out.k[m]], old, &o)
		w.rebase(c, old, vimp)
	}
	return out.m > 0
}

// wakeRedo wakes the sides of redo pair r that do not move this step.
func (w *World) wakeRedo(r *redo) {
	for _, i := range [2]int32{r.a, r.b} {
		if w.ctx.sidx[i] < 0 {
			w.wakeTouched(int(i))
		}
	}
}

// rebase sets the start-of-step separation of c's points, just made in a
// substep, so that the linear estimate from the bodies' motion so far
// gives the separation found now; a point whose feature was there before
// keeps the impact speed it saw in the substeps so far (vimp, for
// restitution: a fresh point starts at 0, and a pair that closed fast
// in an early substep would lose its bounce) and counts as having pushed
// if it carries an impulse.
func (w *World) rebase(c *constraint, old []ContactState, vimp []float64) {
	b1 := &w.ctx.sb[c.s1]
	var dp2, dq2 Vec3
	if c.s2 >= 0 {
		dp2, dq2 = w.ctx.sb[c.s2].dp, w.ctx.sb[c.s2].dq
	}
	ddp := c.d.Dot(b1.dp) - c.d.Dot(dp2)
	for q := c.first; q < c.first+c.count; q++ {
		p, in := &w.ctx.pts[q], &w.ctx.info[q]
		p.sep = p.s - (ddp + p.rn1.Dot(b1.dq) - p.rn2.Dot(dq2))
		p.maxPn = p.pn
		for j := range old {
			if old[j].Feature == in.feature {
				p.vimp = vimp[j]
				break
			}
		}
	}
}

// boxNow returns body i as a box in its pose now (mid-step for an active
// body, whose rotation redo keeps up to date).
func (w *World) boxNow(i int32) box {
	r, p := w.poseNow(i)
	h := w.shapes[i].half
	return box{p: p, u: [3]Vec3{r.Col(0), r.Col(1), r.Col(2)}, h: [3]float64{h.X, h.Y, h.Z}}
}
