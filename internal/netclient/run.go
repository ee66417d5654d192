// Package netclient is cube client's loop: a client that plays a seeded
// autopilot against a server over QUIC in real time, at its own pace (time
// sync scales its tick), then drains until in step and at rest, and the
// report of its run.
package netclient

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// Config is a client's run against a server: what cube client's flags
// say, with the connection made and the client built.
type Config struct {
	Addr    string           // the server's address, for the report
	Conn    transport.Client // dialled
	Client  *predict.Client
	Preset  netsim.Preset // conditions added to this client's own traffic
	Seed    uint64        // the autopilot's
	Seconds float64       // of play, before the drain
	// JoinWait bounds the time the client waits for the server's state
	// (its Welcome, and the transfer a moved world needs); 0 is
	// MaxJoinWait.
	JoinWait time.Duration
}

// MaxJoinWait is how long a client waits for the server's state before it
// gives up: a server that never answers its Hello, or never sends the
// transfer it announced. Joining the cubes scene over the outage preset
// takes a few seconds.
const MaxJoinWait = 30 * time.Second

// NoStateError says that the server sent no state to start from within
// the join's wait.
type NoStateError struct {
	Addr string
	Wait time.Duration
}

func (e *NoStateError) Error() string {
	return fmt.Sprintf("no state from the server at %s in %v: it never answered the Hello, or never sent the state it announced", e.Addr, e.Wait)
}

// maxPosErrors bounds the position errors a client keeps for its summary:
// four and a half hours of states at 64 Hz.
const maxPosErrors = 1 << 20

// Run plays the autopilot against the server for cfg.Seconds in real
// time, then drains, until ctl stops it, and returns the report. A turn's
// error (the server refused the client, or was lost) ends it as it is.
func Run(cfg Config, ctl *runctl.Control) (*Report, error) {
	p := cfg.Preset
	if err := cfg.Conn.SetConditions(p.Conditions, p.Conditions); err != nil {
		return nil, err
	}
	c := cfg.Client
	run := &clientRun{ep: session.NewEndpoint(c, cfg.Conn), conn: cfg.Conn, addr: cfg.Addr, pilot: game.NewAutopilot(c.Scene(), cfg.Seed), start: time.Now(),
		pace: tick.Pacer{MaxLate: tick.MaxClientLate}}
	c.Clock = func() time.Duration { return run.at }
	run.joinWait = cfg.JoinWait
	if run.joinWait <= 0 {
		run.joinWait = MaxJoinWait
	}
	if err := run.loop(ctl, time.Duration(cfg.Seconds*float64(time.Second))); err != nil {
		return nil, err
	}
	return run.summary(p.Name, ctl.Stopped() != nil), nil
}

// clientRun is a client running in real time against a server.
type clientRun struct {
	ep    *session.Endpoint
	conn  transport.Client
	addr  string
	pilot *game.Autopilot
	start time.Time
	pace  tick.Pacer
	at    time.Duration // the time of the turn under way
	// joinWait bounds the wait for the server's first state; joined
	// says it came.
	joinWait time.Duration
	joined   bool

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
// returns early, without an error, on a signal; a turn's error (a refusal,
// a lost server) as it is.
func (r *clientRun) loop(ctl *runctl.Control, play time.Duration) error {
	c := r.ep.Client
	tickDur := tick.Duration(c.World().Config().Dt)
	draining := false
	var drainStart time.Duration
	var states uint64
	for {
		interval := time.Duration(float64(tickDur) / c.Sync.Speed)
		if d := r.pace.Wait(time.Since(r.start), interval); d > 0 {
			if ctl.Sleep(d) {
				break
			}
			continue
		}
		if ctl.Signalled() {
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
			return err
		}
		r.joined = r.joined || c.Joined()
		if !r.joined && r.at >= r.joinWait {
			return &NoStateError{Addr: r.addr, Wait: r.joinWait}
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
