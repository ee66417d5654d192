package record

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// ErrScene is wrapped by the error for a record whose scene this program
// cannot build as the record's server did: a scene it does not have,
// another input rule, or a scene or configuration built differently (its
// identity hash differs). Such a record is refused, not replayed into a
// divergence.
var ErrScene = errors.New("another scene")

// ErrAbsurd is wrapped by the error for a record holding a value no
// server of this program produces: a configuration beyond the limits
// below, or a nudge, a stored state or a contact impulse beyond the
// scene's bounds (game.BoundsOf). Replay, the viewer and the Writer share
// the check (Build, CheckStep), so that a file one refuses, none takes.
var ErrAbsurd = errors.New("absurd value")

// Limits of a record's configuration, beyond physics.Config's own checks
// (finite, in range): no scene comes near them (the defaults are 9.81
// m/s², 3 m/s, 30 Hz), and within them a step stays far from overflow.
const (
	MaxGravity     = 1000   // m/s², |each component| of Config.Gravity: about 100 g
	MaxConfigSpeed = 1000   // m/s: Config.MaxPushSpeed, RestitutionSpeed, SleepSpeed
	MaxConfigRate  = 10_000 // Config.GroundFriction, AngularDamping (1/s), ContactHertz (Hz), ContactDamping
)

// checkConfig refuses a configuration beyond the limits above.
func checkConfig(c *physics.Config) error {
	g := c.Gravity
	for _, f := range []struct {
		name string
		v    float64
		lim  float64
	}{
		{"gravity x", g.X, MaxGravity}, {"gravity y", g.Y, MaxGravity}, {"gravity z", g.Z, MaxGravity},
		{"MaxPushSpeed", c.MaxPushSpeed, MaxConfigSpeed},
		{"RestitutionSpeed", c.RestitutionSpeed, MaxConfigSpeed},
		{"SleepSpeed", c.SleepSpeed, MaxConfigSpeed},
		{"GroundFriction", c.GroundFriction, MaxConfigRate},
		{"AngularDamping", c.AngularDamping, MaxConfigRate},
		{"ContactHertz", c.ContactHertz, MaxConfigRate},
		{"ContactDamping", c.ContactDamping, MaxConfigRate},
	} {
		if !(math.Abs(f.v) <= f.lim) {
			return fmt.Errorf("%w: the configuration's %s is %g, beyond ±%g", ErrAbsurd, f.name, f.v, f.lim)
		}
	}
	return nil
}

// checkState refuses a state with a non-finite value, or one beyond bd.
func checkState(bd game.Bounds, st *physics.State) error {
	for i := range st.Bodies {
		b := &st.Bodies[i]
		if !b.Pos.Finite() || !b.Rot.Finite() || !b.Vel.Finite() || !b.AngVel.Finite() || !b.Force.Finite() || !b.Torque.Finite() {
			return fmt.Errorf("%w: body %d holds a value that is not finite", ErrAbsurd, i)
		}
		if err := bd.Check(b); err != nil {
			return fmt.Errorf("%w: body %d: %v", ErrAbsurd, i, err)
		}
	}
	for i := range st.Contacts {
		if err := bd.CheckContact(&st.Contacts[i]); err != nil {
			return fmt.Errorf("%w: contact %d: %v", ErrAbsurd, i, err)
		}
	}
	return nil
}

// CheckStep returns an error if step s holds a value beyond bd, the
// bounds Build returned for its record: a nudge impulse, or a value of
// the full state stored after it. Replay and the viewer call it before
// they apply a step.
func CheckStep(bd game.Bounds, s *Step) error {
	for k, e := range s.Events {
		if err := bd.CheckEvent(e); err != nil {
			return fmt.Errorf("%w: event %d: %v", ErrAbsurd, k+1, err)
		}
	}
	if s.Full != nil {
		if err := checkState(bd, s.Full); err != nil {
			return fmt.Errorf("the full state stored after tick %d: %w", s.Tick, err)
		}
	}
	return nil
}

// Build builds the scene h names, checks that it is the one the record was
// made with and that the configuration and the initial state are
// plausible, and restores the initial state into it. It returns the world,
// the scene and the bounds every step must keep (CheckStep). Replay, the
// viewer and NewWriter build with it.
func Build(h *Header) (*physics.World, *game.Scene, game.Bounds, error) {
	id := &h.Scene
	var bd game.Bounds
	if game.About(id.Name) == "" {
		return nil, nil, bd, fmt.Errorf("%w: the record is for scene %q, which this program does not have (it has %s)",
			ErrScene, id.Name, strings.Join(game.Names(), ", "))
	}
	if err := checkConfig(&h.Physics); err != nil {
		return nil, nil, bd, err
	}
	w, sc, err := game.Build(id.Name, h.Physics, game.Options{Players: id.Players, Bodies: id.Bodies, Quantize: id.Quantize})
	if err != nil {
		return nil, nil, bd, fmt.Errorf("%w: the record is for %s, which this program cannot build: %v", ErrScene, id, err)
	}
	if sc.ID.Rule != id.Rule {
		return nil, nil, bd, fmt.Errorf("%w: the record was made with input rule %d, this program has rule %d", ErrScene, id.Rule, sc.ID.Rule)
	}
	if sc.ID != *id {
		return nil, nil, bd, fmt.Errorf("%w: the record is for %s, but this program builds %s: another version of the scene, the engine or its configuration",
			ErrScene, id, sc.ID)
	}
	bd = game.BoundsOf(w, sc.Options)
	if err := checkState(bd, &h.Initial); err != nil {
		return nil, nil, bd, fmt.Errorf("the initial state: %w", err)
	}
	if err := w.Restore(&h.Initial); err != nil {
		return nil, nil, bd, fmt.Errorf("the initial state does not fit the scene: %w", err)
	}
	return w, sc, bd, nil
}
