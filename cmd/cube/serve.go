package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"syscall"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/internal/serve"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/transport"
)

// serveFlags are the flags of `cube server`.
type serveFlags struct {
	listen     string
	scene      netSceneFlags
	snapshotHz int
	budgetKbps float64
	seconds    float64
	record     recordFlags
	json       bool
	perAddress int
	fleet      fleetFlags
}

// defaultPerAddress lets a loopback test run a server's 8 players and a
// few more connections from 127.0.0.1.
const defaultPerAddress = 16

func runServer(args []string, stdout, stderr io.Writer) error {
	ctl := runctl.New(stderr)
	defer ctl.Stop()
	return serveWith(args, stdout, stderr, ctl)
}

// serveWith is `cube server` with its signals from ctl: the tests send it
// theirs the way a signal arrives.
func serveWith(args []string, stdout, stderr io.Writer, ctl *runctl.Control) error {
	f, err := parseServeFlags(args, stderr)
	if err != nil {
		return err
	}
	w, sc, mode, err := f.scene.build()
	if err != nil {
		return err
	}
	probe, stopProbe, err := f.fleet.start(stderr, os.Getenv)
	if err != nil {
		return err
	}
	defer stopProbe()
	cfg := serve.Config{Listen: f.listen, World: w, Scene: sc, Mode: mode, SnapshotHz: f.snapshotHz, BudgetKbps: f.budgetKbps,
		PerAddress: f.perAddress, Seconds: f.seconds, Record: f.record.path, FullEvery: uint32(f.record.fullEvery), RecordStages: f.record.stages,
		Listening: func(addr, pin string) error {
			if _, err := fmt.Fprintf(stdout, "listening %s pin %s\n", addr, pin); err != nil {
				return fmt.Errorf("writing the listening line: %w", err)
			}
			return nil
		}, ExitWhenEmpty: f.fleet.exitWhenEmpty}
	if probe != nil {
		cfg.Probe = probe
	}
	sum, err := serve.Run(cfg, ctl)
	var le *serve.ListenError
	if errors.As(err, &le) {
		if errors.Is(err, syscall.EADDRINUSE) {
			return exitError{code: 1, msg: fmt.Sprintf("%s is in use (another server?): pick another -listen port, or port 0 for a free one", f.listen)}
		}
		return exitError{code: 1, msg: err.Error()}
	}
	if err != nil {
		return err
	}
	if f.json {
		return writeJSON(stdout, sum)
	}
	sum.Print(stdout)
	return nil
}

// parseServeFlags parses and checks cube server's flags (deploy/agones's
// manifests are checked against them too).
func parseServeFlags(args []string, stderr io.Writer) (*serveFlags, error) {
	fs := cli.NewFlags("server", "server [-listen ADDR] [-scene NAME] [-bodies N] [-quantize] [-sync state|inputs] [-max-players N] [-snapshot-hz H] [-budget-kbps K] [-seconds S] [-record FILE [-full-every N] [-record-stages]] [-per-address N] [-workers N] [-json] [-metrics ADDR] [-agones] [-exit-when-empty]", stderr)
	f := &serveFlags{}
	fs.StringVar(&f.listen, "listen", "127.0.0.1:4242", "UDP address to listen on: 127.0.0.1:0 picks a free port; 0.0.0.0:4242 or [::]:4242 takes clients from other machines")
	f.scene.register(fs)
	fs.IntVar(&f.snapshotHz, "snapshot-hz", 64, fmt.Sprintf("snapshot (and relay) rate in Hz, one of %v", server.SnapshotRates))
	fs.Float64Var(&f.budgetKbps, "budget-kbps", server.DefaultDownBudget*8/1000, "each client's snapshot budget in kbit/s (state sync), 0 for none: one datagram a snapshot at most")
	fs.Float64Var(&f.seconds, "seconds", 0, fmt.Sprintf("serve for this many seconds, 0 to %d (0: until SIGINT or SIGTERM)", maxSimSeconds))
	f.record.register(fs)
	fs.BoolVar(&f.json, "json", false, "print the summary as one JSON object")
	fs.IntVar(&f.perAddress, "per-address", defaultPerAddress, fmt.Sprintf("most connections, and most player slots, one IP address may hold at once, 1 to %d", transport.DefaultMaxConns))
	f.fleet.register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if err := f.fleet.check(); err != nil {
		return nil, err
	}
	if f.perAddress < 1 || f.perAddress > transport.DefaultMaxConns {
		return nil, cli.Usagef("-per-address %d is out of range: want 1 to %d", f.perAddress, transport.DefaultMaxConns)
	}
	if err := checkHostPort("-listen", f.listen, 0); err != nil {
		return nil, err
	}
	if !server.ValidSnapshotRate(f.snapshotHz) {
		return nil, cli.Usagef("-snapshot-hz %d is not a snapshot rate: want one of %v", f.snapshotHz, server.SnapshotRates)
	}
	if math.IsNaN(f.budgetKbps) || f.budgetKbps < 0 || f.budgetKbps > 1e6 {
		return nil, cli.Usagef("-budget-kbps %v is out of range: want 0 (none) to 1000000", f.budgetKbps)
	}
	if math.IsNaN(f.seconds) || f.seconds < 0 || f.seconds > maxSimSeconds {
		return nil, cli.Usagef("-seconds %v is out of range: want 0 (until a signal) to %d", f.seconds, maxSimSeconds)
	}
	if err := f.record.check(); err != nil {
		return nil, err
	}
	return f, nil
}
