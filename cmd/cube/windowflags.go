package main

import (
	"fmt"
	"io"
	"math"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/ui/window"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// Window size bounds.
const (
	minSize = 64
	maxSize = 16384
)

// frameFlags are the window's and the viewer's size and -frames runs.
type frameFlags struct {
	width      int
	height     int
	frames     int
	screenshot string
}

// check validates the size, -frames and -screenshot.
func (f *frameFlags) check() error {
	if f.width < minSize || f.width > maxSize {
		return cli.Usagef("-width %d is out of range: want %d to %d", f.width, minSize, maxSize)
	}
	if f.height < minSize || f.height > maxSize {
		return cli.Usagef("-height %d is out of range: want %d to %d", f.height, minSize, maxSize)
	}
	if f.frames < 0 {
		return cli.Usagef("-frames %d is negative: want 0 (run until closed) or more", f.frames)
	}
	if f.screenshot != "" && f.frames == 0 {
		return cli.Usagef("-screenshot needs -frames N: the picture is of the last frame")
	}
	if f.screenshot != "" {
		return checkScreenshotPath(f.screenshot)
	}
	return nil
}

// config returns the window's configuration with these flags.
func (f *frameFlags) config(title string, stdout, stderr io.Writer) window.Config {
	return window.Config{Title: title, Width: f.width, Height: f.height, Frames: f.frames, Screenshot: f.screenshot, Stdout: stdout, Stderr: stderr}
}

// windowFlags are the flags of the window.
type windowFlags struct {
	session    sessionFlags
	frame      frameFlags
	autopilot  bool
	paused     bool
	draw       string // the debug layers on from the start (-draw)
	inject     uint
	reportDir  string
	record     recordFlags
	connect    connectFlags
	maxPlayers int
	bots       int
	fullBots   bool
	set        map[string]bool // the flags given
}

func registerWindowFlags(fs *cli.Flags) *windowFlags {
	wf := &windowFlags{}
	wf.session.register(fs)
	fs.IntVar(&wf.frame.width, "width", 1280, fmt.Sprintf("window width in pixels, %d to %d", minSize, maxSize))
	fs.IntVar(&wf.frame.height, "height", 720, fmt.Sprintf("window height in pixels, %d to %d", minSize, maxSize))
	fs.BoolVar(&wf.autopilot, "autopilot", false, "drive the cube with the scripted autopilot instead of the keyboard")
	fs.BoolVar(&wf.paused, "paused", false, "start with the simulation paused (P resumes): with -frames, measures drawing alone")
	fs.StringVar(&wf.draw, "draw", "", "debug layers on from the start (F2 to F8 toggle them): all, or a comma-separated list of contacts, bounds, islands, colours, rewind, correction, velocities")
	fs.IntVar(&wf.frame.frames, "frames", 0, "quit after this many frames (0: run until closed)")
	fs.StringVar(&wf.frame.screenshot, "screenshot", "", "with -frames: write the last frame to this PNG file (its name must end in .png)")
	registerDebugFlags(fs, &wf.inject, &wf.reportDir)
	wf.record.register(fs)
	wf.connect.register(fs, "play against the cube server at this UDP address, HOST:PORT (its 'listening' line prints it), instead of one in this process")
	fs.IntVar(&wf.maxPlayers, "max-players", game.MaxPlayers, fmt.Sprintf("with -connect: the server's player slots, 1 to %d (part of its scene)", game.MaxPlayers))
	fs.IntVar(&wf.bots, "bots", 0, fmt.Sprintf("in process: this many more players, each with its own link and autopilot, 0 to %d: remote players that send their inputs and keep time sync but simulate nothing", game.MaxPlayers-1))
	fs.BoolVar(&wf.fullBots, "full-bots", false, "with -bots: run each bot as a full predicting client with its own world in this process, as cube sim runs its players (for comparison: the window then simulates N+1 clients)")
	return wf
}

// serverOnly are the window's flags that set the server or the session in
// this process, which a window playing against a remote server cannot.
var serverOnly = []string{"snapshot-hz", "budget-kbps", "input-driven", "missing", "start-tick", "record", "full-every", "record-stages", "bots", "full-bots", "paused"}

// remote reports whether the window plays against a remote server.
func (wf *windowFlags) remote() bool { return wf.set["connect"] }

// checkRemote validates the flags of a window that plays against a remote
// server and returns the world its client predicts: the scene the server
// must run.
func (wf *windowFlags) checkRemote(stderr io.Writer) (*physics.World, *game.Scene, predict.Mode, error) {
	for _, name := range serverOnly {
		if wf.set[name] {
			return nil, nil, 0, cli.Usagef("-%s is for a session in this process, not with -connect (the server's settings are cube server's flags)", name)
		}
	}
	if err := wf.connect.check(stderr); err != nil {
		return nil, nil, 0, err
	}
	sf := &wf.session
	ns := netSceneFlags{scene: sf.scene, bodies: sf.bodies, quantize: sf.quantize, maxPlayers: wf.maxPlayers, sync: sf.sync, workers: sf.workers}
	return ns.build()
}

// registerDebugFlags adds the determinism debugging flags sim and the window
// share.
func registerDebugFlags(fs *cli.Flags, inject *uint, reportDir *string) {
	fs.UintVar(inject, "inject-nondeterminism", 0, "move the client's cube by one ulp every N ticks, to test the desync detector (0: never)")
	fs.StringVar(reportDir, "report-dir", "", "folder for the report written at the first nondeterminism (default the current folder, which needs to be writable only if a report is written)")
}

// checkInject refuses an -inject-nondeterminism interval beyond uint32.
func checkInject(n uint) error {
	if n > math.MaxUint32 {
		return cli.Usagef("-inject-nondeterminism %d is out of range: want 0 to %d", n, uint32(math.MaxUint32))
	}
	return nil
}

// check validates the window flags (the session's ones too when it runs
// in process).
func (wf *windowFlags) check() (session.Config, error) {
	var cfg session.Config
	var err error
	if !wf.remote() {
		if cfg, err = wf.session.config(); err != nil {
			return cfg, err
		}
		if wf.set["pin"] || wf.set["insecure"] || wf.set["max-players"] {
			return cfg, cli.Usagef("-pin, -insecure and -max-players are for -connect; in process, -bots adds clients")
		}
		if wf.bots < 0 || wf.bots > game.MaxPlayers-1 {
			return cfg, cli.Usagef("-bots %d is out of range: want 0 to %d", wf.bots, game.MaxPlayers-1)
		}
		if wf.bots > 0 && !cfg.Clocked {
			return cfg, cli.Usagef("-bots needs the clocked server: -input-driven serves one player")
		}
		if wf.fullBots && wf.bots == 0 {
			return cfg, cli.Usagef("-full-bots needs -bots N")
		}
		cfg.Players = 1
		cfg.Bots = wf.bots
		if wf.fullBots {
			cfg.Players, cfg.Bots = wf.bots+1, 0
		}
		if err := checkDropPlayers(cfg.Scene, cfg.Options.Bodies, cfg.Players+cfg.Bots); err != nil {
			return cfg, err
		}
	}
	if err := cli.CheckDir("-report-dir", wf.reportDir); err != nil {
		return cfg, err
	}
	if err := wf.frame.check(); err != nil {
		return cfg, err
	}
	if err := wf.record.check(); err != nil {
		return cfg, err
	}
	if err := checkInject(wf.inject); err != nil {
		return cfg, err
	}
	return cfg, nil
}
