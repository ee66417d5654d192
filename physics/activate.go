package physics

// activate lists this step's active bodies (dynamic, enabled, awake) in
// index order, and derives what the step needs of them from their state:
// rotation, world inverse inertia, the velocity change per substep, how far
// they may move this step (sweep) and their bounds grown by it. It looks
// at the dynamic bodies only: a static body's solver index is -1 from
// AddBox on.
func (w *World) activate() {
	w.ctx.active = w.ctx.active[:0]
	w.ctx.sb = w.ctx.sb[:0]
	w.ctx.vel = w.ctx.vel[:0]
	dt, h := w.cfg.Dt, w.h
	for _, i := range w.dyn {
		s := &w.shapes[i]
		b := &w.st.Bodies[i]
		if b.Disabled || b.Asleep {
			w.ctx.sidx[i] = -1
			continue
		}
		if w.ctx.mask != nil && !w.ctx.mask[i] {
			// Awake but not followed (partial.go): its bounds, for the
			// broad phase to say what it reaches, on the first pass.
			w.ctx.sidx[i] = -1
			if w.ctx.lite {
				w.liteBounds(int(i))
				w.ctx.sidx[i] = pairOnly
			}
			continue
		}
		w.ctx.sidx[i] = int32(len(w.ctx.active))
		w.ctx.active = append(w.ctx.active, i)
		w.fresh[i] = false
		w.rot[i] = rotationMat(b.Rot)
		invI := sandwich(&w.rot[i], s.invInertia)
		acc := w.cfg.Gravity.AddScaled(b.Force, s.invMass)
		alpha := invI.MulVec(b.Torque)
		angVel := b.AngVel
		// The speed the body may reach this step, and so how far it may go.
		v := b.Vel.AddScaled(acc, dt)
		rs := mul(dt, mul(angVel.AddScaled(alpha, dt).Len(), s.radius))
		sw := mul(dt, v.Len()) + rs
		w.sweep[i] = sw
		w.bounds[i] = boundsOf(s.half, &w.rot[i], b.Pos, mul(0.5, w.cfg.Margin)+sw)
		w.ctx.sb = append(w.ctx.sb, solverBody{
			dv: acc.Scale(h), dw: alpha.Scale(h),
			invM: s.invMass, invI: invI,
			vp: v, rs: rs, turn: w.rot[i],
		})
		w.ctx.vel = append(w.ctx.vel, bodyVel{v: b.Vel, w: angVel})
	}
}
