package record

import (
	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// arenaScene is the arena as built by game; it holds no evolving state, so
// every test world shares it.
var arenaScene = func() *game.Scene { _, sc := game.MustBuild("arena"); return sc }()

// mustArena builds a fresh arena world.
func mustArena() *physics.World {
	w, _ := game.MustBuild("arena")
	return w
}

// stepInput applies player 0's input and steps, as the server does.
func stepInput(w *physics.World, in game.Input) error { return arenaScene.Step1(w, in) }

// scripted returns the arena's scripted input for tick t (it does not
// steer by position).
func scripted(t uint32) game.Input { return arenaScene.Script(t, 0, physics.BodyState{}) }

// one is the inputs of a tick for the arena's one player.
func one(in game.Input) []game.Input { return []game.Input{in} }
