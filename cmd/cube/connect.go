package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/cubelab/cube/internal/lab"
	"github.com/cubelab/cube/internal/summarytext"
	"io"
	"math"
	"strings"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// maxPosErrors bounds the position errors a client keeps for its summary:
// four and a half hours of states at 64 Hz.
const maxPosErrors = 1 << 20

func runClient(args []string, stdout, stderr io.Writer) error {
	ctl := newRunControl(stderr)
	defer ctl.stop()
	return connect(args, stdout, stderr, ctl)
}

// connect is `cube client` with its signals from ctl.
func connect(args []string, stdout, stderr io.Writer, ctl *runControl) error {
	fs := newFlags("client", "client -connect ADDR -pin PIN [-insecure] [-preset NAME] [-seconds S] [-seed N] [-scene NAME] [-bodies N] [-quantize] [-max-players N] [-sync state|inputs] [-full-replay] [-workers N] [-json] [-inject-nondeterminism N] [-report-dir DIR]", stderr)
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
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := checkInject(inject); err != nil {
		return err
	}
	if err := checkReportDir(reportDir); err != nil {
		return err
	}
	p, err := presetByFlag(*preset)
	if err != nil {
		return err
	}
	if math.IsNaN(*seconds) || *seconds < 0 || *seconds > maxSimSeconds {
		return usagef("-seconds %v is out of range: want 0 to %d", *seconds, maxSimSeconds)
	}
	w, sc, mode, err := sf.build()
	if err != nil {
		return err
	}
	if err := cf.check(stderr); err != nil {
		return err
	}
	ccfg := predict.DefaultClientConfig()
	ccfg.Mode, ccfg.TimeSync = mode, true
	ccfg.FullReplay = *fullReplay
	c := predict.NewClient(ccfg, w, sc, randomNonce())
	watchDesync(c, stderr, reportDir, uint32(inject))

	quietQUIC()
	conn, err := transport.Dial(context.Background(), cf.addr, cf.pin, cf.insecure, &transport.Options{Seed: *seed})
	if err != nil {
		return dialError(err)
	}
	defer conn.Close()
	if err := conn.SetConditions(p.Conditions, p.Conditions); err != nil {
		return err
	}
	run := &clientRun{ep: session.NewEndpoint(c, conn), conn: conn, addr: cf.addr, pilot: game.NewAutopilot(sc, *seed), start: time.Now(),
		pace: lab.Pacer{MaxLate: lab.ClientMaxLate}}
	c.Clock = func() time.Duration { return run.at }
	err = run.loop(ctl, time.Duration(*seconds*float64(time.Second)))
	if err != nil {
		return err
	}
	sum := run.summary(p.Name, ctl.stopped != nil)
	_ = conn.Close()
	if *asJSON {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		printClientSummary(stdout, &sum)
	}
	return ctl.exit("", sum.Seconds)
}

// watchDesync makes c report its first nondeterminism to a file in dir,
// as sim and the window do, and, when every is not 0, moves its cube by
// one ulp every that many ticks to prove the detector.
func watchDesync(c *predict.Client, stderr io.Writer, dir string, every uint32) {
	injectOnceJoined(c, every)
	c.KeepStates = true
	found := false
	c.OnMispredict = func(m *predict.Misprediction) {
		if m.Kind == predict.KindNondeterminism && !found {
			found = true
			reportDesync(stderr, stderr, dir, m)
		}
	}
}

// injectOnceJoined makes c's cube move by one ulp every that many ticks (0:
// never), to prove the detector. The hook is handed the client's cube,
// which is known once the server has taken it (a client predicts nothing
// before).
func injectOnceJoined(c *predict.Client, every uint32) {
	if every == 0 {
		return
	}
	c.Perturb = session.InjectNondeterminism(every)
}

// randomNonce returns a nonce for the Hello: it tells this client's Hello
// from an earlier one's, and has nothing to do with the simulation.
func randomNonce() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// clientRun is a client running in real time against a server.
type clientRun struct {
	ep    *session.Endpoint
	conn  transport.Client
	addr  string
	pilot *game.Autopilot
	start time.Time
	pace  lab.Pacer
	at    time.Duration // the time of the turn under way

	played     time.Duration
	drained    time.Duration
	playBytes  [2]uint64
	settled    bool
	posErrors  []float64
	lastStates uint64
	overlap    session.Overlap // in the predicted world, after each turn
}

// loop plays for play, then drains until the client's newest state
// matches the server's with its cube at rest, at most session.MaxDrain,
// each turn at the client's own pace (time sync scales the tick). It
// returns early, without an error, on a signal.
func (r *clientRun) loop(ctl *runControl, play time.Duration) error {
	c := r.ep.Client
	tickDur := tick.Duration(c.World().Config())
	draining := false
	var drainStart time.Duration
	var states uint64
	for {
		interval := time.Duration(float64(tickDur) / c.Sync.Speed)
		if d := r.pace.Wait(time.Since(r.start), interval); d > 0 {
			if ctl.sleep(d) {
				break
			}
			continue
		}
		if ctl.signalled() {
			break
		}
		r.at = r.pace.Turn(interval)
		if !draining && r.at >= play {
			draining, drainStart, states = true, r.at, c.Stats.StatesReceived
			r.played = r.at
			st := r.conn.Stats()
			r.playBytes = [2]uint64{st.SentBytes, st.ReceivedBytes}
		}
		in := game.Input(0)
		if !draining {
			in = r.pilot.Input(c.World().Body(c.Body()))
		}
		if err := r.ep.Turn(r.at, in); err != nil {
			return turnFailure(err, r.addr, c)
		}
		r.overlap.Measure(c.World())
		if c.Stats.StatesReceived != r.lastStates {
			r.lastStates = c.Stats.StatesReceived
			if len(r.posErrors) < maxPosErrors {
				r.posErrors = append(r.posErrors, c.LastError())
			}
		}
		if draining {
			r.drained = r.at - drainStart
			if r.settled = c.Settled(states); r.settled || r.drained >= session.MaxDrain {
				return nil
			}
		}
	}
	// Stopped by a signal.
	if r.played == 0 {
		r.played = r.at
		st := r.conn.Stats()
		r.playBytes = [2]uint64{st.SentBytes, st.ReceivedBytes}
	}
	return nil
}

// turnFailure turns what ended a turn of client c against the server at
// addr into the command's error: a refusal or a lost server in one line,
// exit 1.
func turnFailure(err error, addr string, c *predict.Client) error {
	if errors.Is(err, predict.ErrRefused) {
		why := err.Error()
		if i := strings.Index(why, predict.ErrRefused.Error()+": "); i >= 0 {
			why = why[i+len(predict.ErrRefused.Error())+2:]
		}
		return exitError{code: 1, msg: fmt.Sprintf("the server at %s refused this client: %s (this client built %s in %s sync)",
			addr, why, c.Scene().ID, c.Config.Mode)}
	}
	var lost *transport.LostError
	if errors.As(err, &lost) {
		return exitError{code: 1, msg: lost.Error()}
	}
	return err
}

// clientReport is what `cube client` prints: the summary predict builds
// for an endpoint, with the server's address.
type clientReport struct {
	Server string `json:"server"`
	session.Summary
}

// summary builds the report.
func (r *clientRun) summary(preset string, interrupted bool) clientReport {
	m := r.ep.Summary(session.ClientRun{
		Seconds: r.played.Seconds(), DrainSeconds: r.drained.Seconds(), Settled: r.settled, Played: r.playBytes,
		Link: r.conn.Stats(), MaxUp: r.ep.MaxUp, MaxDown: r.ep.MaxDown, PosErrors: r.posErrors,
	})
	m.Preset, m.Interrupted, m.Overlap = preset, interrupted, r.overlap
	return clientReport{Server: r.addr, Summary: m}
}

// printClientSummary prints the readable summary: cube sim's client part.
func printClientSummary(w io.Writer, rep *clientReport) {
	s := &rep.Summary
	q := ""
	if s.Quantize {
		q = ", quantized"
	}
	fmt.Fprintf(w, "%s, %s%s, server %s, preset %s on top of the network, %.2f s played + %.2f s drained, %d ticks, %s\n",
		s.Scene, summarytext.SyncName(summarytext.ModeName(s.Sync)), q, rep.Server, s.Preset, s.Seconds, s.DrainSeconds, s.Ticks,
		summarytext.JoinRoundTrip(time.Duration(s.RTTms*float64(time.Millisecond)), tick.Duration(physics.DefaultConfig())))
	fmt.Fprintf(w, "packets   up %d sent, %d dropped by the preset; down %d received, %d dropped by the preset; %.1f kbit/s up, %.1f kbit/s down; largest %d B up, %d B down\n",
		s.Packets.UpSent, s.Packets.UpLost, s.Packets.DownSent-s.Packets.DownLost, s.Packets.DownLost, s.BytesPerSecond.Up*8/1000, s.BytesPerSecond.Down*8/1000,
		s.Packets.MaxBytesUp, s.Packets.MaxBytesDown)
	summarytext.ClientLines(w, s)
	fmt.Fprintf(w, "time sync lead about %d ticks, input buffer p95 %.0f ticks, %d late (as the server's messages said), %s\n",
		s.LeadTicks, s.InputBufferP95, s.LateInputs, summarytext.Plural(int64(s.TimeSyncJumps), "jump"))
	summarytext.Final(w, s)
}
