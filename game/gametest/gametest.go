// Package gametest holds the helpers tests use to build and drive the
// arena scene without a session: the scene, a fresh world, one step with
// player 0's input as the server applies it, and the scripted inputs. It
// is imported by tests only.
package gametest

import (
	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Scene is the arena as built by game; it holds no evolving state, so
// every test world shares it.
var Scene = func() *game.Scene { _, sc := game.MustBuild("arena"); return sc }()

// World builds a fresh arena world.
func World() *physics.World {
	w, _ := game.MustBuild("arena")
	return w
}

// Step applies player 0's input in and steps w, as the server does.
func Step(w *physics.World, in game.Input) error { return Scene.Step1(w, in) }

// Scripted returns the arena's scripted input for tick t (it does not
// steer by position).
func Scripted(t uint32) game.Input { return Scene.Script(t, 0, physics.BodyState{}) }
