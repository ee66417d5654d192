package physics

import (
	"errors"
	"fmt"
)

// World holds bodies and steps them. It is not safe for concurrent use.
//
// Its fields are of three kinds: what persists (configuration, shapes,
// the state, data derived from the state or the configuration, the
// broad phase's order, the requests and notes for the next step, the
// workers), and the step's scratch, in ctx (stepctx.go), which means
// nothing between steps.
type World struct {
	cfg    Config
	shapes []shape // fixed configuration, by body index
	dyn    []int32 // the dynamic bodies, by index: static ones are never active
	st     State   // everything that evolves

	// Derived from st, never saved. Rotation matrices and bounds of the
	// bodies the step skips (static, asleep, disabled) are derived whenever
	// their pose is set or they fall asleep; those of active bodies at the
	// start of every step.
	rot    []Mat3
	bounds []aabb     // grown by Margin/2, and for active bodies by sweep
	sweep  []float64  // how far an active body may move this step, m
	fresh  []bool     // rot and bounds are those derive gives for the current pose
	bp     broadphase // the broad phase's order (its pairs are the step's, ctx.pairs)

	// Derived from cfg (New).
	h          float64 // substep length
	invH       float64 // 1 / h
	angDamp    float64 // angular damping factor per substep
	tallLoad   float64 // tallLoad weights of a 1 kg body over a substep, N·s (heavy.go)
	soft       softness
	staticSoft softness
	consts     stageConsts // the solver passes' constants (stages.go)

	// What the next step is asked to do and what changed since the last
	// one (trace.go, partial.go): kept between steps, cleared by the step.
	rec       *Trace       // the trace the next step records, or nil
	follow    *Trace       // the recorded trace the next step follows, or nil
	strace    *stageTracer // the stage trace the next step records (TraceNext), or shash, or nil
	shash     *stageTracer // the stage hashes every step records (HashStages), or nil
	followSet *Set         // the caller's set of the followed step
	touched   []int32      // bodies changed since the last step, outside it
	before    []BodyState  // their states as the step found them (noteTouched)
	woken     []int32      // bodies woken since the last step

	ctx      stepCtx    // the step's scratch (stepctx.go)
	stepped  bool       // the state is the one the last Step left (Stepped)
	reserved int        // the body count reserve sized the buffers for
	overlap  overlapBuf // MaxOverlap's buffers
	par      parallel   // the workers and their buffers (pool.go)
}

// New returns an empty world with configuration cfg (its zero fields that
// have defaults set to them).
func New(cfg Config) (*World, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	w := &World{cfg: cfg}
	w.par.n = cfg.workers()
	w.ctx.graph.limit = colourCount
	w.h = cfg.Dt / float64(cfg.Iterations)
	w.invH = 1 / w.h
	w.angDamp = 1 / (1 + mul(w.h, cfg.AngularDamping))
	w.tallLoad = mul(mul(tallLoad, sqrt(cfg.Gravity.Dot(cfg.Gravity))), w.h)
	hz := min(cfg.ContactHertz, mul(0.25, 1/w.h))
	w.soft = makeSoft(hz, cfg.ContactDamping, w.h)
	w.staticSoft = makeSoft(mul(2, hz), cfg.ContactDamping, w.h)
	w.consts = stageConsts{bias: w.solveConst(true), relax: w.solveConst(false), shock: w.shockConst()}
	return w, nil
}

// Config returns the world's configuration, defaults filled in.
func (w *World) Config() Config { return w.cfg }

// AddBox adds a box and returns its body index.
func (w *World) AddBox(d BoxDef) (int, error) {
	if len(w.shapes) >= w.cfg.MaxBodies {
		return 0, fmt.Errorf("physics: world is full (MaxBodies %d)", w.cfg.MaxBodies)
	}
	q, err := d.validate()
	if err != nil {
		return 0, err
	}
	w.shapes = append(w.shapes, newShape(&d))
	b := BodyState{Pos: d.Pos, Rot: q}
	if !d.Static {
		b.Vel, b.AngVel = d.Vel, d.AngVel
	}
	w.st.Bodies = append(w.st.Bodies, b)
	w.rot = append(w.rot, Mat3{})
	w.bounds = append(w.bounds, aabb{})
	w.sweep = append(w.sweep, 0)
	w.ctx.sidx = append(w.ctx.sidx, -1)
	w.fresh = append(w.fresh, false)
	i := len(w.shapes) - 1
	if !d.Static {
		w.dyn = append(w.dyn, int32(i))
	}
	w.bp.order = append(w.bp.order, int32(i))
	w.bp.resort = true
	w.derive(i)
	return i, nil
}

// NumBodies returns the number of bodies.
func (w *World) NumBodies() int { return len(w.shapes) }

// Tick returns the number of steps taken since the world was built (or the
// tick of the state last restored).
func (w *World) Tick() uint32 { return w.st.Tick }

// Body returns the state of body i.
func (w *World) Body(i int) BodyState { return w.st.Bodies[i] }

// Half returns the half extents of body i.
func (w *World) Half(i int) Vec3 { return w.shapes[i].half }

// Mass returns the mass of body i in kg, 0 for a static body.
func (w *World) Mass(i int) float64 { return w.shapes[i].mass }

// Static reports whether body i is static.
func (w *World) Static(i int) bool { return w.shapes[i].static }

// Enabled reports whether body i takes part in the world.
func (w *World) Enabled(i int) bool { return !w.st.Bodies[i].Disabled }

// Awake reports whether body i is a dynamic, enabled body that is not asleep:
// one the next step will move.
func (w *World) Awake(i int) bool {
	b := &w.st.Bodies[i]
	return !w.shapes[i].static && !b.Disabled && !b.Asleep
}

// AwakeCount returns the number of awake bodies (see Awake).
func (w *World) AwakeCount() int {
	n := 0
	for i := range w.shapes {
		if w.Awake(i) {
			n++
		}
	}
	return n
}

// Contacts returns the contact cache of the last step, in key order. The
// slice is the world's own: read it, do not keep it.
func (w *World) Contacts() []ContactState { return w.st.Contacts }

// Grounded reports whether body i was pushed up by a contact (a contact whose
// normal points upward, within about 45 degrees) in the last step it was
// awake: a sleeping body keeps its contacts.
func (w *World) Grounded(i int) bool {
	for k := range w.st.Contacts {
		c := &w.st.Contacts[k]
		if c.Pn <= 0 || (int(c.A) != i && int(c.B) != i) {
			continue
		}
		n := w.ContactNormal(c)
		if (int(c.A) == i && n.Y > 0.7) || (int(c.B) == i && n.Y < -0.7) {
			return true
		}
	}
	return false
}

// ContactNormal returns the normal of cached contact c, from B towards A,
// as its feature names it (the reference face, or the two edges) in the
// bodies' current poses.
func (w *World) ContactNormal(c *ContactState) Vec3 {
	if c.B == Ground {
		return Vec3{0, 1, 0}
	}
	a, b := &w.st.Bodies[c.A], &w.st.Bodies[c.B]
	ra, rb := rotationMat(a.Rot), rotationMat(b.Rot)
	f := c.Feature
	if f&featEdge != 0 {
		ea, eb := int(f>>4&0xf), int(f&0xf)
		ua := ra.Col(ea / 4)
		l := ua.Cross(rb.Col(eb / 4))
		if l.Dot(l) < 1e-12 { // parallel edges (nearEdges): across the gap between them
			g := edgeCentre(a.Pos, &ra, w.shapes[c.A].half, ea).Sub(edgeCentre(b.Pos, &rb, w.shapes[c.B].half, eb))
			l = g.AddScaled(ua, -g.Dot(ua))
		}
		if l.Dot(a.Pos.Sub(b.Pos)) < 0 {
			l = l.Neg()
		}
		return l.Scale(1 / l.Len())
	}
	face := int(f >> featFaceBits & 7)
	if f&featRefB != 0 {
		n := rb.Col(face / 2)
		if face&1 != 0 {
			n = n.Neg()
		}
		return n
	}
	n := ra.Col(face / 2)
	if face&1 == 0 {
		n = n.Neg()
	}
	return n
}

// edgeCentre returns the centre of edge e (see edgeID) of a box with
// centre p, rotation r and half extents h.
func edgeCentre(p Vec3, r *Mat3, h Vec3, e int) Vec3 {
	k := e / 4
	lo, hi := next3[k], next3[k+1]
	if lo > hi {
		lo, hi = hi, lo
	}
	hs := [3]float64{h.X, h.Y, h.Z}
	return p.AddScaled(r.Col(lo), sgn(e&1, hs[lo])).AddScaled(r.Col(hi), sgn(e>>1&1, hs[hi]))
}

// Hash returns the hash of the world's state (see State.Hash).
func (w *World) Hash() uint64 { return w.st.Hash() }

// SkipTo sets the world's tick to t without stepping: what a server does
// when it jumps over ticks it has no input for. The skipped ticks are not
// simulated; nothing else changes.
func (w *World) SkipTo(t uint32) { w.st.Tick = t }

// SetBody replaces body i's pose, velocities and accumulated forces with
// those of b, and wakes it. It refuses non-finite values and an orientation
// that is not unit length. b's Rest, Asleep and Disabled are not used: the
// body keeps its enabled flag (see SetEnabled).
func (w *World) SetBody(i int, b BodyState) error {
	if i < 0 || i >= len(w.shapes) {
		return fmt.Errorf("physics: body %d does not exist (have %d)", i, len(w.shapes))
	}
	if err := checkBody(i, &b); err != nil {
		return err
	}
	cur := &w.st.Bodies[i]
	w.touch(i)
	b.Disabled, b.Asleep, b.Rest = cur.Disabled, false, 0
	*cur = b
	w.derive(i)
	return nil
}

// SetMotion sets body i's pose and velocities and nothing else: its
// accumulated forces, its rest counter and its sleep state stay as they
// are. It is for rules applied after a step to every moving body, such as
// quantising the state to a grid, which must not keep bodies awake. It
// refuses non-finite values and an orientation that is not unit length.
func (w *World) SetMotion(i int, pos Vec3, rot Quat, vel, angVel Vec3) error {
	if i < 0 || i >= len(w.shapes) {
		return fmt.Errorf("physics: body %d does not exist (have %d)", i, len(w.shapes))
	}
	b := w.st.Bodies[i]
	b.Pos, b.Rot, b.Vel, b.AngVel = pos, rot, vel, angVel
	if err := checkBody(i, &b); err != nil {
		return err
	}
	w.st.Bodies[i] = b
	w.derive(i)
	return nil
}

// ErrDisabled is returned when a force or an impulse is applied to a disabled
// body.
var ErrDisabled = errors.New("physics: body is disabled")

// SetEnabled enables or disables body i. A disabled body takes no part in
// anything: no contacts, no integration, no island; it stays where it is,
// with its velocities, until it is enabled again, awake. Disabling a body
// drops its contacts from the cache and wakes the bodies it touched.
func (w *World) SetEnabled(i int, on bool) error {
	if i < 0 || i >= len(w.shapes) {
		return fmt.Errorf("physics: body %d does not exist (have %d)", i, len(w.shapes))
	}
	b := &w.st.Bodies[i]
	if on == !b.Disabled {
		return nil
	}
	w.touch(i)
	if on {
		b.Disabled = false
		w.wake(i)
		return nil
	}
	b.Disabled, b.Asleep, b.Rest = true, false, 0
	b.Force, b.Torque = Vec3{}, Vec3{}
	cs := w.st.Contacts[:0]
	for _, c := range w.st.Contacts {
		if int(c.A) == i || int(c.B) == i {
			if o := int(c.A) + int(c.B) - i; c.B != Ground && o != i {
				w.touch(o)
				w.wake(o)
			}
			continue
		}
		cs = append(cs, c)
	}
	w.st.Contacts = cs
	return nil
}

// wake wakes dynamic body i, alone: the step wakes the rest of its island.
func (w *World) wake(i int) {
	if b := &w.st.Bodies[i]; !w.shapes[i].static {
		if b.Asleep || b.Rest != 0 {
			w.woken = append(w.woken, int32(i))
		}
		b.Asleep, b.Rest = false, 0
	}
}

// wakeTouched wakes dynamic body i because an awake body came into contact
// with it or with its island, keeping its rest count: the island it joins
// sleeps again as soon as its least rested member allows. wake's reset
// here made two resting islands that touch on and off keep each other
// awake for ever, each waking the other just before its count came round
// (the cubes scene's heap after a pull: 365 bodies awake 60 s later).
func (w *World) wakeTouched(i int) {
	if b := &w.st.Bodies[i]; !w.shapes[i].static && b.Asleep {
		w.woken = append(w.woken, int32(i))
		b.Asleep = false
	}
}

// derive recomputes body i's rotation matrix and its bounds at rest (grown
// by half the margin, no sweep) from its pose.
func (w *World) derive(i int) {
	b := &w.st.Bodies[i]
	w.rot[i] = rotationMat(b.Rot)
	w.bounds[i] = boundsOf(w.shapes[i].half, &w.rot[i], b.Pos, mul(0.5, w.cfg.Margin))
	w.sweep[i] = 0
	w.fresh[i] = true
}
