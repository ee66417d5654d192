package game

import (
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/splitmix"
)

// Autopilot drives a player's cube like a person would: it picks a target
// (in the arena often the wall, to hit it, or the ramp or the step;
// elsewhere a spot in the scene's area), holds the keys that lead there,
// changes its mind now and then, and jumps from time to time; in a scene
// with a pull it pulls on the way to some targets. It is seeded, so a run
// can be reproduced.
type Autopilot struct {
	sc     *Scene
	rng    splitmix.Rand
	target physics.Vec3
	pull   bool
	left   int // ticks before it picks a new target
}

// NewAutopilot returns an autopilot for sc with its own random stream.
func NewAutopilot(sc *Scene, seed uint64) *Autopilot {
	return &Autopilot{sc: sc, rng: splitmix.New(seed ^ 0x5eed)}
}

// Input returns the keys to hold for the player's cube in state b.
func (a *Autopilot) Input(b physics.BodyState) Input {
	if a.left <= 0 || (abs(b.Pos.X-a.target.X) < 0.5 && abs(b.Pos.Z-a.target.Z) < 0.5) {
		a.pick()
	}
	a.left--
	in := towards(b.Pos, a.target, 0.4)
	if a.pull {
		in |= Pull
	}
	if a.rng.Intn(96) == 0 {
		in |= Jump
	}
	return in
}

// pick chooses the next target and how long to chase it (1 to 4 s).
func (a *Autopilot) pick() {
	a.left = 64 + a.rng.Intn(192)
	ar := a.sc.area
	switch k := a.rng.Intn(5); {
	case a.sc.Name == "arena" && k < 2: // into the wall
		a.target = physics.Vec3{X: -4 + float64(8*a.rng.Float64()), Z: -9}
	case k == 2 && len(a.sc.targets) > 0: // a landmark: up the ramp, onto the step
		a.target = a.sc.targets[a.rng.Intn(len(a.sc.targets))]
	default:
		a.target = physics.Vec3{
			X: ar.x0 + float64((ar.x1-ar.x0)*a.rng.Float64()),
			Z: ar.z0 + float64((ar.z1-ar.z0)*a.rng.Float64()),
		}
	}
	a.pull = a.sc.pulls && a.rng.Intn(3) != 0
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
