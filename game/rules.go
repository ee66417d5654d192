package game

import (
	"math"

	"github.com/cubelab/cube/physics"
)

// RuleVersion names the input rule below. It is part of every scene's
// identity, so a record made under another rule is refused rather than
// reported as a divergence. Change it whenever Apply changes what it does.
const RuleVersion = 1

// Rules are the numbers of the input rule of a scene. Every force scales
// with the mass of the box it acts on, so a rule means the same for a small
// cube and a large one.
type Rules struct {
	PushAccel  float64 // m/s² per held direction key, at the centre of mass
	MaxPushVel float64 // m/s: no push along a direction the box already moves this fast; 0: no limit
	RollAccel  float64 // m/s² times the mass, as a torque about the horizontal axis that rolls the box the way it is pushed
	JumpSpeed  float64 // m/s: upward velocity change of a jump, only when standing on something
	PullRadius float64 // m: boxes whose centre is this close to the player's are pulled; 0: no pull
	PullAccel  float64 // m/s² towards the player's centre, for each pulled box
}

// up is the world's up axis.
var up = physics.Vec3{Y: 1}

// Apply turns one tick of player p's input into forces: the one rule that
// client, server and replay all call. Directions are world axes (never a
// camera's). A direction key pushes with PushAccel times the mass unless the
// box already moves faster than MaxPushVel that way, and with RollAccel it
// also turns the box to roll that way; jump changes the upward velocity by
// JumpSpeed only when the box stood on something in the last step; pull
// draws every dynamic box within PullRadius that is not a player's cube
// towards the player. An
// input for a cube that is out of the world (its player left, or has not
// come back yet) does nothing: a client may predict another player's cube
// with an input the server relayed before it learns of the Leave or Join.
func (sc *Scene) Apply(w *physics.World, p int, in Input) error {
	i := sc.Players[p]
	if !w.Enabled(i) {
		return nil
	}
	r := &sc.Rules
	b := w.Body(i)
	m := w.Mass(i)
	push := mul(m, r.PushAccel)
	var f physics.Vec3
	limit := r.MaxPushVel
	if limit == 0 {
		limit = math.Inf(1)
	}
	if in&Forward != 0 && b.Vel.Z > -limit {
		f.Z -= push
	}
	if in&Back != 0 && b.Vel.Z < limit {
		f.Z += push
	}
	if in&Left != 0 && b.Vel.X > -limit {
		f.X -= push
	}
	if in&Right != 0 && b.Vel.X < limit {
		f.X += push
	}
	if f != (physics.Vec3{}) {
		if err := w.ApplyForce(i, f); err != nil {
			return err
		}
		if r.RollAccel != 0 {
			// The axis up × push rolls a box resting on the ground towards
			// the push.
			t := up.Cross(f).Scale(r.RollAccel / r.PushAccel)
			if err := w.ApplyTorque(i, t); err != nil {
				return err
			}
		}
	}
	if in&Jump != 0 && r.JumpSpeed > 0 && w.Grounded(i) {
		if err := w.ApplyImpulse(i, physics.Vec3{Y: mul(m, r.JumpSpeed)}); err != nil {
			return err
		}
	}
	if in&Pull != 0 && r.PullRadius > 0 {
		return sc.pull(w, i, b.Pos)
	}
	return nil
}

// pull draws every dynamic box other than a player's within PullRadius of
// centre towards it, in body order.
func (sc *Scene) pull(w *physics.World, player int, centre physics.Vec3) error {
	r2 := mul(sc.Rules.PullRadius, sc.Rules.PullRadius)
	for j := 0; j < w.NumBodies(); j++ {
		if w.Static(j) || sc.isPlayer(j) {
			continue
		}
		d := centre.Sub(w.Body(j).Pos)
		d2 := d.Dot(d)
		if d2 >= r2 || d2 == 0 {
			continue
		}
		s := mul(w.Mass(j), sc.Rules.PullAccel) / math.Sqrt(d2)
		if err := w.ApplyForce(j, d.Scale(s)); err != nil {
			return err
		}
	}
	return nil
}

// isPlayer reports whether body j is a player's cube.
func (sc *Scene) isPlayer(j int) bool {
	for _, p := range sc.Players {
		if p == j {
			return true
		}
	}
	return false
}

// Step applies each player's input (ins[p] for player p; players beyond
// len(ins) get no input) and steps the world once: the composition client,
// server and replay share.
func (sc *Scene) Step(w *physics.World, ins []Input) error {
	for p := range sc.Players {
		if p >= len(ins) {
			break
		}
		if err := sc.Apply(w, p, ins[p]); err != nil {
			return err
		}
	}
	return sc.step(w)
}

// Step1 is Step for player 0 alone.
func (sc *Scene) Step1(w *physics.World, in Input) error {
	if err := sc.Apply(w, 0, in); err != nil {
		return err
	}
	return sc.step(w)
}

// step steps w and, in a quantised scene, puts it on the grid.
func (sc *Scene) step(w *physics.World) error {
	w.Step()
	if sc.Options.Quantize {
		return sc.quantize(w)
	}
	return nil
}

// mul returns a*b rounded to float64, so that it never fuses into a
// multiply-add (see package physics).
func mul(a, b float64) float64 { return float64(a * b) }
