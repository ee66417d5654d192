package lab

import (
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// Play is what the lab shows and drives: the in-process session (Local)
// or a client playing against a server over a network (Remote). The lab
// talks to its play through this interface only; the keys that act on
// the server or the session in this process need a *Local.
type Play interface {
	// Client returns the client the window shows.
	Client() *predict.Client
	// Now returns the time of the shown client's clock.
	Now() time.Duration
	// Run runs the ticks due after elapsed more wall-clock seconds, the
	// shown client's input from in, calling after after each tick.
	Run(elapsed float64, in func() game.Input, after func()) error
	// Frame moves the display on by elapsed seconds: the smoothing.
	Frame(elapsed float64)
	// Display returns the displayed pose of the shown client's cube.
	Display() (mgl64.Vec3, mgl64.Quat)
	// Rates returns the shown client's traffic over the last second.
	Rates() session.Rates
	// SetPreset sets the link's conditions: the session's links in
	// process, the client's own link against a remote server.
	SetPreset(p netsim.Preset) error
	// Status returns the HUD's first lines: the link and the scene, the
	// short ones for a small window when compact.
	Status(compact bool) []string
	// Late returns how many of the shown client's inputs reached the
	// server too late.
	Late() uint64
	// Rejected returns the HUD's line of rejected messages.
	Rejected() string
	// ServerCube returns the server's state of body i, and false when the
	// server is not in this process.
	ServerCube(i int) (physics.BodyState, bool)
	// Speed returns the share of the ticks due that ran lately and since
	// the start, and false when the play keeps no such figure.
	Speed() (recent, total float64, ok bool)
	// Lost returns what ended the connection, or nil.
	Lost() error
}
