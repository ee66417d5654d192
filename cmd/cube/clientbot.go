package main

import (
	"flag"
	"io"
	"strings"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
)

// botHelp is -bot's help.
var botHelp = "play as a load-generating bot that keeps no world: it joins, keeps time sync and sends a seeded blind pilot's keys " +
	"(it cannot see its cube: into the scene's middle, then legs there and back), and takes only the heads of the server's messages; " +
	"its summary counts ticks, inputs, states, bytes and late inputs and never says whether it was in sync. " +
	"For loading a server with players without a client's CPU (scripts/capacity.sh). Not with " + botRefusedList

// botRefused are the flags that mean nothing to a bot, which predicts,
// replays and compares nothing.
var botRefused = []string{"full-replay", "inject-nondeterminism", "report-dir", "allow-desync", "workers"}

var botRefusedList = "-" + strings.Join(botRefused, ", -")

// botFooter ends cube client's help: a bot's exit codes.
const botFooter = `with -bot: 0 once its seconds are played (a bot checks no sync), 1 refused, lost or never welcomed, 2 a usage error, 128+N stopped by signal N.
`

// checkBotFlags refuses, with -bot, a flag that a bot cannot honour.
func checkBotFlags(fs *cli.Flags) error {
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		for _, r := range botRefused {
			if f.Name == r {
				bad = append(bad, "-"+r)
			}
		}
	})
	if len(bad) > 0 {
		return cli.Usagef("-bot keeps no world, so it takes none of %s: a bot predicts, replays and compares nothing (drop them, or -bot)",
			strings.Join(bad, ", "))
	}
	return nil
}

// botRun is what cube client -bot runs: its flags, checked, and the
// scene built (a bot reads only its players' start spots).
type botRun struct {
	cf      *connectFlags
	w       *physics.World
	sc      *game.Scene
	mode    predict.Mode
	preset  netsim.Preset
	seed    uint64
	seconds float64
	asJSON  bool
}

// runBot dials the server and plays the bot against it.
func runBot(r botRun, stdout io.Writer, ctl *runctl.Control) error {
	b := netclient.NewBot(r.mode, r.sc, tick.Duration(r.w.Config().Dt))
	conn, err := netclient.Dial(r.cf.target(r.seed))
	if err != nil {
		return dialError(err)
	}
	defer conn.Close()
	rep, err := netclient.RunBot(netclient.BotConfig{Addr: r.cf.addr, Conn: conn, Bot: b, Scene: r.sc, World: r.w,
		Preset: r.preset, Seed: r.seed, Seconds: r.seconds}, ctl)
	if err != nil {
		if msg, ok := netclient.BotFailure(err, r.cf.addr, b, r.sc); ok {
			return exitError{code: 1, msg: msg}
		}
		return err
	}
	_ = conn.Close()
	if r.asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		rep.Print(stdout)
	}
	return signalExit(ctl, "", rep.Seconds)
}
