package game

import (
	"fmt"

	"github.com/cubelab/cube/physics"
)

// Bench-only scenes: the stacking and mass-ratio cases of the validation suite, for
// `cube bench` to set beside the peers. Build builds them like any other
// scene, but Names does not list them: the window, sessions and records
// keep to the lab's scenes. Options.Bodies is their parameter.
var benchBuilders = []builder{
	{"tower", "N aligned unit cubes of 1 kg stacked on the ground (Options.Bodies, 0: 20), and an idle player cube", buildTower},
	{"load", "a unit cube of R kg on a unit cube of 1 kg on the ground (Options.Bodies is R, 0: 100), and an idle player cube", buildLoad},
}

// Defaults and bounds of the bench scenes' parameter.
const (
	DefaultTowerBodies = 20
	MaxTowerBodies     = 1000
	DefaultLoadRatio   = 100
	MaxLoadRatio       = 100000
)

// BenchNames returns every scene Build builds: Names, then the bench-only
// scenes.
func BenchNames() []string {
	out := Names()
	for _, b := range benchBuilders {
		out = append(out, b.name)
	}
	return out
}

// benchOption resolves and checks o.Bodies for the bench scene name.
func benchOption(name string, o *Options) error {
	def, hi := DefaultTowerBodies, MaxTowerBodies
	if name == "load" {
		def, hi = DefaultLoadRatio, MaxLoadRatio
	}
	if o.Bodies == 0 {
		o.Bodies = def
	}
	if o.Bodies < 1 || o.Bodies > hi {
		return fmt.Errorf("game: %s with parameter %d: want 1 to %d", name, o.Bodies, hi)
	}
	return nil
}

// buildTower: Options.Bodies unit cubes stacked at the origin, each resting
// on the one below; the player's cube waits 8 m away.
func buildTower(w *physics.World, sc *Scene) error {
	sc.Rules = idleRules
	if err := addPlayers(w, sc, 0.5, 1, idlePlayerSpot); err != nil {
		return err
	}
	for k := 0; k < sc.Options.Bodies; k++ {
		if _, err := add(w, cube(0.5, 1, physics.Vec3{Y: 0.5 + float64(k)})); err != nil {
			return err
		}
	}
	sc.area = area{-10, -10, 10, 10}
	return nil
}

// buildLoad: a unit cube of Options.Bodies kg resting on a unit cube of
// 1 kg at the origin; the player's cube waits 8 m away.
func buildLoad(w *physics.World, sc *Scene) error {
	sc.Rules = idleRules
	if err := addPlayers(w, sc, 0.5, 1, idlePlayerSpot); err != nil {
		return err
	}
	if _, err := add(w, cube(0.5, 1, physics.Vec3{Y: 0.5}), cube(0.5, float64(sc.Options.Bodies), physics.Vec3{Y: 1.5})); err != nil {
		return err
	}
	sc.area = area{-10, -10, 10, 10}
	return nil
}
