package predict

import "github.com/cubelab/cube/physics"

// Autopilot drives the player cube like a person would: it picks a target
// (often the wall, to hit it; otherwise a spot in the arena, the ramp or the
// step), holds the keys that lead there, changes its mind now and then, and
// jumps from time to time. It is seeded, so a run can be reproduced.
type Autopilot struct {
	rng    rng
	target physics.Vec3
	left   int // ticks before it picks a new target
}

// NewAutopilot returns an autopilot with its own random stream.
func NewAutopilot(seed uint64) *Autopilot {
	return &Autopilot{rng: rng{s: seed ^ 0x5eed}}
}

// Input returns the keys to hold for the player's current state.
func (a *Autopilot) Input(b physics.BodyState) physics.Input {
	if a.left <= 0 || (abs(b.Pos.X-a.target.X) < 0.5 && abs(b.Pos.Z-a.target.Z) < 0.5) {
		a.pick()
	}
	a.left--
	var in physics.Input
	dx, dz := a.target.X-b.Pos.X, a.target.Z-b.Pos.Z
	switch {
	case dx > 0.4:
		in |= physics.Right
	case dx < -0.4:
		in |= physics.Left
	}
	switch {
	case dz > 0.4:
		in |= physics.Back
	case dz < -0.4:
		in |= physics.Forward
	}
	if a.rng.intn(96) == 0 {
		in |= physics.Jump
	}
	return in
}

// pick chooses the next target and how long to chase it (1 to 4 s).
func (a *Autopilot) pick() {
	a.left = 64 + a.rng.intn(192)
	switch a.rng.intn(5) {
	case 0, 1: // into the wall
		a.target = physics.Vec3{X: -4 + 8*a.rng.float(), Z: -9}
	case 2: // up the ramp or onto the step
		if a.rng.intn(2) == 0 {
			a.target = physics.Vec3{X: -7, Z: -2}
		} else {
			a.target = physics.Vec3{X: 7}
		}
	default:
		a.target = physics.Vec3{X: -12 + 24*a.rng.float(), Z: -6 + 18*a.rng.float()}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
