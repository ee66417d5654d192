package physics

import "fmt"

// drive is what a test scene's script does to its driven body in one tick:
// up to four horizontal pushes along the world axes and a hop. It is the
// tests' own way to move a body with forces and impulses through the
// public API (ApplyForce, ApplyImpulse, Grounded); the engine knows no
// player. Its numbers are those of package game's input rule so that the
// arena's golden hash is also the one `cube hash -scene arena` prints,
// which the golden test cross-checks.
type drive uint8

// The bits of a drive.
const (
	negZ drive = 1 << iota // push towards -Z
	negX                   // push towards -X
	posZ                   // push towards +Z
	posX                   // push towards +X
	hop                    // an upward impulse, only when grounded

	driveBits = negZ | negX | posZ | posX | hop // every valid bit
)

// The numbers of a drive.
const (
	pushForce  = 14.0 // N per push
	pushMaxVel = 6.0  // m/s: no push along a direction already this fast
	hopImpulse = 5.0  // N·s, upward
)

// push applies one tick of drive d to body i: each push is pushForce
// along its axis unless the body already moves faster than pushMaxVel
// that way; a hop is an upward impulse of hopImpulse, only when the body
// stood on something in the last step.
func push(w *World, i int, d drive) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	v := w.Body(i).Vel
	var f Vec3
	if d&negZ != 0 && v.Z > -pushMaxVel {
		f.Z -= pushForce
	}
	if d&posZ != 0 && v.Z < pushMaxVel {
		f.Z += pushForce
	}
	if d&negX != 0 && v.X > -pushMaxVel {
		f.X -= pushForce
	}
	if d&posX != 0 && v.X < pushMaxVel {
		f.X += pushForce
	}
	if err := w.ApplyForce(i, f); err != nil {
		return err
	}
	if d&hop != 0 && w.Grounded(i) {
		return w.ApplyImpulse(i, Vec3{0, hopImpulse, 0})
	}
	return nil
}

// stepArena pushes the arena's driven cube with d and steps the world.
func stepArena(w *World, d drive) error {
	if err := push(w, arenaCube, d); err != nil {
		return err
	}
	w.Step()
	return nil
}

// buildScene returns a world with configuration cfg and the boxes defs,
// body i from defs[i]: the one way the test scenes are built.
func buildScene(cfg Config, defs []BoxDef) (*World, error) {
	w, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for k, d := range defs {
		if _, err := w.AddBox(d); err != nil {
			return nil, fmt.Errorf("box %d: %w", k, err)
		}
	}
	return w, nil
}

// mustScene builds a test scene with the default configuration; it panics
// only if the scene itself is broken (a test scenes' build function has no
// testing.TB to report to).
func mustScene(build func(Config) (*World, error)) *World {
	w, err := build(DefaultConfig())
	if err != nil {
		panic(err)
	}
	return w
}

// testScene is a scene the engine's tests run.
type testScene struct {
	name   string
	build  func() *World
	cube   int                  // the driven body
	script func(t uint32) drive // its drive at tick t
	extra  func(w *World) error // forces of the scene besides the drive's, or nil
}

// testScenes are the arena (one cube among static boxes), the pile and the
// swarm.
var testScenes = []testScene{
	{"arena", mustArena, arenaCube, arenaDrive, nil},
	{"pile", mustPile, pileCube, pileDrive, nil},
	{"swarm", mustSwarm, swarmCube, swarmDrive, swarmThrow},
}

// step applies the scene's forces and drive for the world's tick and
// steps it.
func (sc *testScene) step(w *World) error {
	if sc.extra != nil {
		if err := sc.extra(w); err != nil {
			return err
		}
	}
	if err := push(w, sc.cube, sc.script(w.Tick())); err != nil {
		return err
	}
	w.Step()
	return nil
}

// run steps w n ticks (see step).
func (sc *testScene) run(w *World, n int) error {
	for k := 0; k < n; k++ {
		if err := sc.step(w); err != nil {
			return err
		}
	}
	return nil
}
