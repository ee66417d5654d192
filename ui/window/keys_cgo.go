//go:build cgo

package window

import (
	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
)

// keyActions maps a pressed key to its lab.Action.
var keyActions = map[render.Key]lab.Action{
	render.Key1: lab.ActPreset1, render.Key2: lab.ActPreset2, render.Key3: lab.ActPreset3, render.Key4: lab.ActPreset4,
	render.Key5: lab.ActPreset5, render.Key6: lab.ActPreset6, render.Key7: lab.ActPreset7,
	render.KeyLeftBracket: lab.ActSlower, render.KeyRightBracket: lab.ActFaster,
	render.KeyC: lab.ActCorrections, render.KeyM: lab.ActSmoothing, render.KeyR: lab.ActRedundancy, render.KeyT: lab.ActSyncTest,
	render.KeyY: lab.ActServerCube, render.KeyB: lab.ActSnapshotCube, render.KeyV: lab.ActPredictedCube,
	render.KeyK: lab.ActNudge, render.KeyP: lab.ActPause, render.KeyPeriod: lab.ActStep,
	render.KeyBackspace: lab.ActReset, render.KeyF12: lab.ActScreenshot,
	render.KeyN: lab.ActNextScene, render.KeyI: lab.ActSyncMode, render.KeyHome: lab.ActResetCamera, render.KeyTab: lab.ActOverlay,
	render.KeyF1: lab.ActHelp, render.KeyH: lab.ActHelp, render.KeyEscape: lab.ActQuit,
}

// moveKeys are the keys held for movement, with their input bits.
var moveKeys = []struct {
	key render.Key
	bit game.Input
}{
	{render.KeyW, game.Forward}, {render.KeyA, game.Left}, {render.KeyS, game.Back},
	{render.KeyD, game.Right}, {render.KeySpace, game.Jump}, {render.KeyE, game.Pull},
}

// heldInput reads the movement keys.
func heldInput(w *render.Window) game.Input {
	var in game.Input
	for _, k := range moveKeys {
		if w.Held(k.key) {
			in |= k.bit
		}
	}
	return in
}
