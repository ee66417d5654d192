package physics

import "fmt"

// World holds bodies and steps them. It is not safe for concurrent use.
type World struct {
	cfg    Config
	shapes []shape // fixed configuration, by body index
	st     State   // everything that evolves

	// Derived each step from st, never saved.
	rot      []Mat3    // rotation matrices
	invI     []Mat3    // world-space inverse inertia tensors
	bounds   []aabb    // bounding boxes, for the broad phase
	manifold []contact // this step's contacts, in key order
	angDamp  float64
}

// New returns an empty world with configuration cfg.
func New(cfg Config) (*World, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &World{cfg: cfg, angDamp: 1 / (1 + mul(cfg.Dt, cfg.AngularDamping))}, nil
}

// Config returns the world's configuration.
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
	w.invI = append(w.invI, Mat3{})
	w.bounds = append(w.bounds, aabb{})
	i := len(w.shapes) - 1
	w.deriveStatic(i)
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

// Contacts returns the contact cache of the last step, in key order. The
// slice is the world's own: read it, do not keep it.
func (w *World) Contacts() []ContactState { return w.st.Contacts }

// Grounded reports whether body i was pushed up by a contact (a contact whose
// normal points upward, within about 45 degrees) in the last step.
func (w *World) Grounded(i int) bool {
	for k := range w.st.Contacts {
		c := &w.st.Contacts[k]
		if c.Pn <= 0 {
			continue
		}
		if (int(c.A) == i && c.Normal.Y > 0.7) || (int(c.B) == i && c.Normal.Y < -0.7) {
			return true
		}
	}
	return false
}

// Hash returns the hash of the world's state (see State.Hash).
func (w *World) Hash() uint64 { return w.st.Hash() }

// Save copies the world's whole evolving state into dst, reusing dst's
// buffers: once dst is large enough it does not allocate.
func (w *World) Save(dst *State) { dst.CopyFrom(&w.st) }

// State returns the world's state. It is the world's own: read it, do not
// keep it across a Step.
func (w *World) State() *State { return &w.st }

// Restore replaces the world's evolving state with src. It refuses a state
// that does not fit this world (body count, contact indices and order) or
// that holds non-finite values, and then leaves the world unchanged.
func (w *World) Restore(src *State) error {
	if err := w.checkState(src); err != nil {
		return err
	}
	w.st.CopyFrom(src)
	for i := range w.shapes {
		if w.shapes[i].static {
			w.deriveStatic(i)
		}
	}
	return nil
}

// checkState reports why s cannot be restored into w.
func (w *World) checkState(s *State) error {
	if len(s.Bodies) != len(w.shapes) {
		return fmt.Errorf("physics: restore: state has %d bodies, world has %d", len(s.Bodies), len(w.shapes))
	}
	for i := range s.Bodies {
		if err := checkBody(i, &s.Bodies[i]); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	var prev uint64
	for k := range s.Contacts {
		c := &s.Contacts[k]
		n := int32(len(w.shapes))
		if c.A < 0 || c.A >= n || c.B < Ground || c.B >= n || c.A == c.B || c.Feature > 15 {
			return badValue("restore: contact %d names bodies %d, %d, feature %d outside the world", k, c.A, c.B, c.Feature)
		}
		if !c.Normal.Finite() || !finite(c.Pn) || !finite(c.Pt1) || !finite(c.Pt2) {
			return badValue("restore: contact %d has a non-finite value", k)
		}
		if key := c.key(); k > 0 && key <= prev {
			return badValue("restore: contact %d is out of order", k)
		} else {
			prev = key
		}
	}
	return nil
}

// SkipTo sets the world's tick to t without stepping: what a server does
// when it jumps over ticks it has no input for. The skipped ticks are not
// simulated; nothing else changes.
func (w *World) SkipTo(t uint32) { w.st.Tick = t }

// SetBody replaces body i's state (pose, velocities, accumulated forces).
// It refuses non-finite values and an orientation that is not unit length.
func (w *World) SetBody(i int, b BodyState) error {
	if i < 0 || i >= len(w.shapes) {
		return fmt.Errorf("physics: body %d does not exist (have %d)", i, len(w.shapes))
	}
	if err := checkBody(i, &b); err != nil {
		return err
	}
	w.st.Bodies[i] = b
	w.deriveStatic(i)
	return nil
}

// checkBody refuses a body state with a non-finite value or an orientation
// that is not unit length.
func checkBody(i int, b *BodyState) error {
	if !b.Pos.Finite() || !b.Rot.Finite() || !b.Vel.Finite() || !b.AngVel.Finite() || !b.Force.Finite() || !b.Torque.Finite() {
		return badValue("body %d has a non-finite value", i)
	}
	if n := b.Rot.Dot(b.Rot); n < 0.999 || n > 1.001 {
		return badValue("body %d orientation has squared length %v, want 1", i, n)
	}
	return nil
}
