package game

import (
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/splitmix"
)

// BlindPilot drives a player's cube without seeing it, for a player that
// keeps no world (a load-generating bot): the Autopilot steers by its
// cube's state, which such a player never has. It first heads from the
// cube's start spot towards the middle of the scene's area (into the grid
// of the cubes scene), then holds seeded legs there and back: one of the
// eight directions for 1 to 3 s, then the opposite keys for as long, so
// that its drift stays small whatever the contacts did. It jumps from time
// to time and, in a scene with a pull, pulls on two legs in three. Its
// input depends only on the seed, the start and how many it gave: the
// same seed gives the same keys.
type BlindPilot struct {
	rng   splitmix.Rand
	keys  Input // the direction keys of the leg under way
	back  bool  // the leg under way is the way back
	left  int   // ticks left of it
	out   int   // the length of the last way out, which the way back repeats
	pull  bool  // the leg under way pulls
	pulls bool  // the scene has a pull
}

// blindDirs are the eight directions a leg may hold.
var blindDirs = [8]Input{Forward, Forward | Right, Right, Right | Back, Back, Back | Left, Left, Left | Forward}

// blindSpeed is the speed a first leg is timed by, m/s: under a cube's
// top push speed, since the way in meets other bodies.
const blindSpeed = 3

// NewBlindPilot returns a pilot for a cube of sc that starts at start,
// with its own random stream.
func NewBlindPilot(sc *Scene, seed uint64, start physics.Vec3) *BlindPilot {
	a := &BlindPilot{rng: splitmix.New(seed ^ 0xb11d), pulls: sc.pulls, back: true}
	mid := physics.Vec3{X: (sc.area.x0 + sc.area.x1) / 2, Z: (sc.area.z0 + sc.area.z1) / 2}
	a.keys = towards(start, mid, 0.5)
	dx, dz := abs(mid.X-start.X), abs(mid.Z-start.Z)
	a.left = int(max(dx, dz) / blindSpeed * 64) // ticks at 64 Hz; the longer axis sets it
	a.left = min(a.left, 4*64)
	a.pull = a.pulls
	return a
}

// Input returns the keys for the next tick.
func (a *BlindPilot) Input() Input {
	if a.left <= 0 {
		a.next()
	}
	a.left--
	in := a.keys
	if a.pull {
		in |= Pull
	}
	if a.rng.Intn(96) == 0 {
		in |= Jump
	}
	return in
}

// next starts the next leg: after a way back a new direction, after a
// way out the opposite keys for as long.
func (a *BlindPilot) next() {
	if a.back {
		a.keys = blindDirs[a.rng.Intn(len(blindDirs))]
		a.left = 64 + a.rng.Intn(128)
		a.out = a.left
		a.pull = a.pulls && a.rng.Intn(3) != 0
		a.back = false
		return
	}
	a.keys = opposite(a.keys)
	a.left = a.out
	a.back = true
}

// opposite swaps each direction key for the one against it.
func opposite(in Input) Input {
	var o Input
	for _, p := range [2][2]Input{{Forward, Back}, {Left, Right}} {
		if in&p[0] != 0 {
			o |= p[1]
		}
		if in&p[1] != 0 {
			o |= p[0]
		}
	}
	return o
}
