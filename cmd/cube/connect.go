package main

import (
	"fmt"
	"io"
	"math"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/desync"
	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session/summarytext"
)

func runClient(args []string, stdout, stderr io.Writer) error {
	ctl := runctl.New(stderr)
	defer ctl.Stop()
	return connect(args, stdout, stderr, ctl)
}

// connect is `cube client` with its signals from ctl.
func connect(args []string, stdout, stderr io.Writer, ctl *runctl.Control) error {
	fs := cli.NewFlags("client", "client -connect ADDR -pin PIN [-insecure] [-preset NAME] [-seconds S] [-seed N] [-scene NAME] [-bodies N] [-quantize] [-max-players N] [-sync state|inputs] [-full-replay] [-workers N] [-json] [-inject-nondeterminism N] [-report-dir DIR] [-allow-desync] [-bot]", stderr)
	var cf connectFlags
	cf.register(fs, "the server's UDP address, HOST:PORT, as its 'listening' line prints it")
	var sf netSceneFlags
	sf.register(fs)
	preset := fs.String("preset", "perfect", "conditions added to this client's own traffic on top of the real network, by name or key: "+presetList())
	seconds := fs.Float64("seconds", 60, fmt.Sprintf("seconds the autopilot plays, 0 to %d (then the client drains: no input until in sync and at rest)", maxSimSeconds))
	seed := fs.Uint64("seed", 1, "seed of the autopilot and of the conditioner")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the readable summary")
	fullReplay := fs.Bool("full-replay", false, "re-simulate the whole world on every rewind, as before partial replays (same bits, slower): for comparison and debugging")
	var inject uint
	var reportDir string
	registerDebugFlags(fs, &inject, &reportDir)
	allowDesync := registerVerdict(fs)
	bot := fs.Bool("bot", false, botHelp)
	fs.Footer += botFooter
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *bot {
		if err := checkBotFlags(fs); err != nil {
			return err
		}
	}
	if err := checkInject(inject); err != nil {
		return err
	}
	if err := cli.CheckDir("-report-dir", reportDir); err != nil {
		return err
	}
	p, err := presetByFlag(*preset)
	if err != nil {
		return err
	}
	if math.IsNaN(*seconds) || *seconds < 0 || *seconds > maxSimSeconds {
		return cli.Usagef("-seconds %v is out of range: want 0 to %d", *seconds, maxSimSeconds)
	}
	w, sc, mode, err := sf.build()
	if err != nil {
		return err
	}
	if err := cf.check(stderr); err != nil {
		return err
	}
	if *bot {
		return runBot(botRun{cf: &cf, w: w, sc: sc, mode: mode, preset: p, seed: *seed, seconds: *seconds, asJSON: *asJSON}, stdout, ctl)
	}
	ccfg := predict.DefaultClientConfig()
	ccfg.Mode, ccfg.TimeSync = mode, true
	ccfg.FullReplay = *fullReplay
	c := netclient.NewClient(ccfg, w, sc)
	desync.Watch(c, uint32(inject), stderr, reportDir)

	conn, err := netclient.Dial(cf.target(*seed))
	if err != nil {
		return dialError(err)
	}
	defer conn.Close()
	sum, err := netclient.Run(netclient.Config{Addr: cf.addr, Conn: conn, Client: c, Preset: p, Seed: *seed, Seconds: *seconds}, ctl)
	if err != nil {
		return turnFailure(err, cf.addr, c)
	}
	_ = conn.Close()
	code := sum.Judge()
	if *asJSON {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		sum.Print(stdout)
		summarytext.Verdict(stdout, &sum.Summary, exitCode(code, *allowDesync))
	}
	if err := signalExit(ctl, "", sum.Seconds); err != nil {
		return err
	}
	return verdictExit(code, *allowDesync)
}
