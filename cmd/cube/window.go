package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/desync"
	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/window"
)

// noCgoWindow is what a build without cgo says to do instead of opening
// the window.
const noCgoWindow = "; rebuild with CGO_ENABLED=1, or run 'cube sim' for a headless session"

// runWindow is `cube window`, the default command: the demo in a window.
func runWindow(args []string, stdout, stderr io.Writer) error {
	if !window.Supported {
		return windowError(window.ErrNoOpenGL, noCgoWindow)
	}
	fs := cli.NewFlags("window", "[window] [-scene NAME] [-bodies N] [-bots N [-full-bots]] [-sync state|inputs] [-quantize] [-budget-kbps K] [-preset NAME] [-snapshot-hz H] [-seed N] [-input-driven [-missing skip|repeat]] [-no-redundancy] [-no-corrections] [-no-smoothing] [-full-replay] [-synctest N] [-start-tick T] [-workers N] [-width W] [-height H] [-autopilot] [-paused] [-draw LAYERS] [-frames N] [-screenshot FILE.png] [-record FILE [-full-every N] [-record-stages]] [-inject-nondeterminism N] [-report-dir DIR] | [window] -connect ADDR (-pin PIN | -insecure) [-max-players N] [the scene, client and window flags]", stderr)
	wf := registerWindowFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			lab.PrintKeys(stderr)
			fmt.Fprintln(stderr)
			printUsage(stderr) // the other commands: a user who ran cube -h finds them here
		}
		return err
	}
	wf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { wf.set[f.Name] = true })
	cfg, err := wf.check()
	if err != nil {
		return err
	}
	layers, err := lab.ParseLayers(wf.draw)
	if err != nil {
		return cli.Usagef("-draw: %v", err)
	}
	var l *lab.Lab
	title := "cube: client-side prediction lab"
	if wf.remote() {
		r, err := dialWindow(wf, stderr)
		if err != nil {
			return err
		}
		defer r.Close()
		l = lab.NewRemote(r, wf.autopilot, uint32(wf.inject), wf.session.seed)
		title += ", playing against " + r.Addr
	} else if l, err = lab.New(cfg, wf.autopilot, uint32(wf.inject)); err != nil {
		return err
	}
	l.Paused = wf.paused
	l.Debug.On = layers
	if wf.record.path != "" {
		end, err := window.Record(l, wf.record.path, wf.record.options(), stdout, stderr)
		if err != nil {
			return err
		}
		defer end()
	}
	l.DesyncFound = func(m *predict.Misprediction) string { return desync.Report(stdout, stderr, wf.reportDir, m) }

	if err := window.Run(l, wf.frame.config(title, stdout, stderr)); err != nil {
		return windowError(err, noCgoWindow)
	}
	if l.Lost() != nil {
		return exitError{code: 1} // the reason went to stderr when it happened
	}
	return nil
}

// dialWindow connects the window's client to the server -connect names:
// the world its flags build, its own link conditioned by -preset (none
// unless given).
func dialWindow(wf *windowFlags, stderr io.Writer) (*lab.Remote, error) {
	w, sc, mode, err := wf.checkRemote(stderr)
	if err != nil {
		return nil, err
	}
	p, _ := netsim.PresetByName("perfect")
	if wf.set["preset"] {
		if p, err = presetByFlag(wf.session.preset); err != nil {
			return nil, err
		}
	}
	ccfg := predict.DefaultClientConfig()
	ccfg.Mode, ccfg.TimeSync = mode, true
	ccfg.Redundancy, ccfg.Corrections = !wf.session.noRedundancy, !wf.session.noCorrection
	ccfg.FullReplay = wf.session.fullReplay
	ccfg.SyncTest = wf.session.syncTest
	c := netclient.NewClient(ccfg, w, sc)
	c.Smooth.Enabled = !wf.session.noSmoothing
	conn, err := netclient.Dial(wf.connect.target(wf.session.seed))
	if err != nil {
		return nil, dialError(err)
	}
	r, err := lab.Connect(wf.connect.addr, conn, c, p, turnFailure)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return r, nil
}
