package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/desync"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/internal/runplot"
	"github.com/cubelab/cube/session/recording"
	"github.com/cubelab/cube/session/summarytext"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/session"
)

// maxSimSeconds bounds -seconds: a day of simulated time.
const maxSimSeconds = 24 * 60 * 60

// sessionFlags are the flags the window and sim share.
type sessionFlags struct {
	preset       string
	seed         uint64
	snapshotHz   int
	noRedundancy bool
	noCorrection bool
	noSmoothing  bool
	fullReplay   bool
	syncTest     int
	missing      string
	startTick    uint64
	scene        string
	bodies       int
	sync         string
	quantize     bool
	budgetKbps   float64
	inputDriven  bool
	workers      workersFlag
}

func (f *sessionFlags) register(fs *cli.Flags) {
	fs.StringVar(&f.preset, "preset", "good", "network conditions, by name or key number 1 to 7: "+presetList())
	fs.StringVar(&f.scene, "scene", "arena", "scene: "+strings.Join(game.Names(), ", "))
	fs.IntVar(&f.bodies, "bodies", 0, fmt.Sprintf("with -scene drop: number of cubes, 1 to %d (0: %d)", game.MaxDropBodies, game.DefaultDropBodies))
	fs.StringVar(&f.sync, "sync", "state", "how the server keeps the client in step: state (snapshots of body states) or inputs (the inputs and events it applied, and a hash)")
	fs.BoolVar(&f.quantize, "quantize", false, "both ends put every moving body on a grid after each step (1/4096 m, smallest-three rotations, 1/1024 m/s), so snapshots are small and exact")
	fs.BoolVar(&f.inputDriven, "input-driven", false, "an input-driven server for one player: it steps when the client's input arrives (-missing says what it does with gaps); by default it steps on its own clock and the client runs ahead of it")
	fs.Float64Var(&f.budgetKbps, "budget-kbps", server.DefaultDownBudget*8/1000, "snapshot budget in kbit/s (state sync), 0 for none: one datagram a snapshot at most")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the link and the autopilot")
	fs.IntVar(&f.snapshotHz, "snapshot-hz", 64, fmt.Sprintf("server snapshot rate in Hz, one of %v", server.SnapshotRates))
	fs.BoolVar(&f.noRedundancy, "no-redundancy", false, "send only the current input, not every input since the last state received")
	fs.BoolVar(&f.noCorrection, "no-corrections", false, "never rewind to the server's state")
	fs.BoolVar(&f.noSmoothing, "no-smoothing", false, "show corrections as jumps")
	fs.IntVar(&f.syncTest, "synctest", 0, fmt.Sprintf("after every tick, rewind N ticks and replay them in full and partially, reporting other bits as nondeterminism of kind rewind: 1 to %d (0: off)", predict.MaxSyncTest))
	fs.BoolVar(&f.fullReplay, "full-replay", false, "re-simulate the whole world on every rewind, as before partial replays (same bits, slower): for comparison and debugging")
	fs.StringVar(&f.missing, "missing", "", "with -input-driven, what the server does with missing inputs: skip (jump to the first tick it has, the default) or repeat (the last input); the clocked server always repeats")
	f.workers.register(fs)
	fs.Uint64Var(&f.startTick, "start-tick", 0, "first tick number, 0 to 4294967295 (start near the top to cross the uint32 wrap)")
}

// presetList names the presets with their keys: "1 perfect, 2 lan, ...".
func presetList() string {
	var names []string
	for i, p := range netsim.Presets() {
		names = append(names, fmt.Sprintf("%d %s", i+1, p.Name))
	}
	return strings.Join(names, ", ")
}

// presetByFlag finds a preset by name or by its key number.
func presetByFlag(s string) (netsim.Preset, error) {
	if k, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
		p, err := netsim.PresetByKey(k)
		if err != nil {
			return p, cli.Usagef("-preset %s: no preset has that key: want a name or key (%s)", s, presetList())
		}
		return p, nil
	}
	p, err := netsim.PresetByName(s)
	if err != nil {
		return p, cli.Usagef("-preset %q is not a preset: want a name or key (%s)", s, presetList())
	}
	return p, nil
}

// sceneConfig checks -scene and -bodies.
func sceneConfig(name string, bodies int) (string, game.Options, error) {
	if game.About(name) == "" {
		return "", game.Options{}, cli.Usagef("-scene %q is not a scene: want one of %s", name, strings.Join(game.Names(), ", "))
	}
	if bodies != 0 && name != "drop" {
		return "", game.Options{}, cli.Usagef("-bodies is for -scene drop; %s has a fixed number of bodies", name)
	}
	if bodies < 0 || bodies > game.MaxDropBodies {
		return "", game.Options{}, cli.Usagef("-bodies %d is out of range: want 1 to %d (0: %d)", bodies, game.MaxDropBodies, game.DefaultDropBodies)
	}
	return name, game.Options{Bodies: bodies}, nil
}

// checkDropPlayers refuses a drop scene with fewer bodies than player cubes.
func checkDropPlayers(scene string, bodies, players int) error {
	if scene == "drop" && bodies != 0 && bodies < players {
		return cli.Usagef("-bodies %d is fewer than the %d player cubes: want %d to %d", bodies, players, players, game.MaxDropBodies)
	}
	return nil
}

// config checks the flags and builds a session configuration.
func (f *sessionFlags) config() (session.Config, error) {
	cfg := session.DefaultConfig()
	p, err := presetByFlag(f.preset)
	if err != nil {
		return cfg, err
	}
	cfg.Preset, cfg.Conditions = p.Name, p.Conditions
	if cfg.Scene, cfg.Options, err = sceneConfig(f.scene, f.bodies); err != nil {
		return cfg, err
	}
	cfg.Options.Quantize = f.quantize
	if err := f.workers.check(); err != nil {
		return cfg, err
	}
	cfg.Physics.Workers = f.workers.n
	if cfg.Client.Mode, err = syncMode(f.sync); err != nil {
		return cfg, err
	}
	if math.IsNaN(f.budgetKbps) || f.budgetKbps < 0 || f.budgetKbps > 1e6 {
		return cfg, cli.Usagef("-budget-kbps %v is out of range: want 0 (none) to 1000000", f.budgetKbps)
	}
	cfg.DownBudget = f.budgetKbps * 1000 / 8
	cfg.Clocked = !f.inputDriven
	if !server.ValidSnapshotRate(f.snapshotHz) {
		return cfg, cli.Usagef("-snapshot-hz %d is not a snapshot rate: want one of %v", f.snapshotHz, server.SnapshotRates)
	}
	cfg.SnapshotHz = f.snapshotHz
	cfg.Seed = f.seed
	cfg.Client.Redundancy = !f.noRedundancy
	cfg.Client.Corrections = !f.noCorrection
	cfg.Client.FullReplay = f.fullReplay
	if f.syncTest < 0 || f.syncTest > predict.MaxSyncTest {
		return cfg, cli.Usagef("-synctest %d is out of range: want 1 to %d (0: off)", f.syncTest, predict.MaxSyncTest)
	}
	cfg.Client.SyncTest = f.syncTest
	cfg.Smoothing = !f.noSmoothing
	switch f.missing {
	case "skip", "":
		cfg.Missing = server.SkipMissing
	case "repeat":
		cfg.Missing = server.RepeatLast
	default:
		return cfg, cli.Usagef("-missing %q: want skip or repeat", f.missing)
	}
	if f.missing != "" && cfg.Clocked {
		return cfg, cli.Usagef("-missing %s is for -input-driven: the clocked server repeats a missing input and counts it", f.missing)
	}
	if f.startTick > math.MaxUint32 {
		return cfg, cli.Usagef("-start-tick %d is out of range: want 0 to %d", f.startTick, uint32(math.MaxUint32))
	}
	cfg.StartTick = uint32(f.startTick)
	return cfg, nil
}

func runSim(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("sim", "sim [-scene NAME] [-bodies N] [-players N] [-sync state|inputs] [-quantize] [-budget-kbps K] [-preset NAME] [-seconds S] [-seed N] [-snapshot-hz H] [-input-driven [-missing skip|repeat]] [-no-redundancy] [-no-corrections] [-no-smoothing] [-full-replay] [-synctest N] [-nudge-every S] [-start-tick T] [-workers N] [-json] [-plot FILE] [-record FILE [-full-every N] [-record-stages]] [-inject-nondeterminism N] [-report-dir DIR] [-allow-desync]", stderr)
	var sf sessionFlags
	sf.register(fs)
	seconds := fs.Float64("seconds", 60, fmt.Sprintf("simulated seconds of play, 0 to %d (then the link drains)", maxSimSeconds))
	nudge := fs.Float64("nudge-every", 0, "push the server's cube every S seconds, a server-only event (0: never)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the readable summary")
	plotPath := fs.String("plot", "", "draw the run's timeline (position error, corrections, traffic) to this PNG file")
	players := fs.Int("players", 1, fmt.Sprintf("clients, each with its own link and autopilot, 1 to %d (more than one needs the clocked server)", game.MaxPlayers))
	var rf recordFlags
	rf.register(fs)
	allowDesync := registerVerdict(fs)
	var inject uint
	var reportDir string
	registerDebugFlags(fs, &inject, &reportDir)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := sf.config()
	if err != nil {
		return err
	}
	if math.IsNaN(*seconds) || *seconds < 0 || *seconds > maxSimSeconds {
		return cli.Usagef("-seconds %v is out of range: want 0 to %d", *seconds, maxSimSeconds)
	}
	if math.IsNaN(*nudge) || *nudge < 0 || *nudge > maxSimSeconds {
		return cli.Usagef("-nudge-every %v is out of range: want 0 (never) to %d", *nudge, maxSimSeconds)
	}
	if *nudge > 0 && *nudge < 1.0/64 {
		return cli.Usagef("-nudge-every %v is shorter than a tick: want 0 (never) or at least 0.015625", *nudge)
	}
	if err := rf.check(); err != nil {
		return err
	}
	if err := checkInject(inject); err != nil {
		return err
	}
	if err := cli.CheckDir("-report-dir", reportDir); err != nil {
		return err
	}
	if err := checkPlotPath(*plotPath); err != nil {
		return err
	}
	if *players < 1 || *players > game.MaxPlayers {
		return cli.Usagef("-players %d is out of range: want 1 to %d", *players, game.MaxPlayers)
	}
	if *players > 1 && !cfg.Clocked {
		return cli.Usagef("-players %d needs the clocked server: -input-driven serves one player", *players)
	}
	cfg.Players = *players
	if err := checkDropPlayers(cfg.Scene, cfg.Options.Bodies, cfg.Players); err != nil {
		return err
	}
	ctl := runctl.New(stderr)
	defer ctl.Stop()
	cfg.NudgeEvery = time.Duration(*nudge * float64(time.Second))
	var rec *recording.File
	setup := func(s *session.Session) error {
		s.Poll = ctl.Poll
		desync.Watch(s.Client, uint32(inject), stderr, reportDir)
		if rf.path != "" {
			var err error
			rec, err = recording.Session(rf.path, rf.options(), s)
			return err
		}
		return nil
	}
	sess, sum, err := session.Run(cfg, *seconds, setup)
	ctl.Stop()
	// A record cut short by a failed write (a full disk) ends the run
	// with exit 1 after the summary: the session played on to its end.
	var cut *recording.CutError
	if cerr := rec.Close(); err == nil && cerr != nil && !errors.As(cerr, &cut) {
		err = fmt.Errorf("%s: %w", rf.path, cerr)
	}
	if err != nil {
		return err
	}
	// The summary first: a plot that cannot be written loses no more.
	code := sum.Judge()
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(sum); err != nil {
			return err
		}
	} else {
		summarytext.Sim(stdout, &sum)
		exit := exitCode(code, *allowDesync)
		if cut != nil {
			exit = 1 // the record's, said on stderr below
		}
		summarytext.Verdict(stdout, &sum, exit)
	}
	// What was written, confirmed: on stdout after the readable summary, on
	// stderr after the JSON one (stdout holds one JSON object).
	said := stdout
	if *asJSON {
		said = stderr
	}
	if *plotPath != "" {
		if err := runplot.Write(*plotPath, &sum, sess.Timeline); err != nil {
			return fmt.Errorf("-plot %s: %w", *plotPath, err)
		}
		fmt.Fprintf(said, "plot written to %s\n", *plotPath)
	}
	if cut != nil {
		fmt.Fprintf(stderr, "cube sim: %v\n", cut)
	} else if rf.path != "" && ctl.Stopped() == nil {
		fmt.Fprintf(said, "record written to %s\n", rf.path)
	}
	if err := signalExit(ctl, rf.path, sum.Seconds); err != nil {
		return err
	}
	if cut != nil {
		return exitError{code: 1}
	}
	return verdictExit(code, *allowDesync)
}
