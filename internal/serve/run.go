package serve

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/internal/serverlog"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/session/recording"
	"github.com/cubelab/cube/transport"
)

// Config is a server's run: what cube server's flags say.
type Config struct {
	Listen     string         // the UDP address, HOST:PORT (port 0: a free one)
	World      *physics.World // the scene's world, built
	Scene      *game.Scene
	Mode       protocol.Mode
	SnapshotHz int     // snapshot (and relay) rate, one of server.SnapshotRates
	BudgetKbps float64 // each client's snapshot budget, 0 for none
	PerAddress int     // most connections and player slots one IP address may hold
	Seconds    float64 // serve this long, 0: until a signal
	Record     string  // the session record's file, "" for none
	FullEvery  uint32  // with Record: a full state every this many ticks
	// RecordStages: with Record, each tick's stage hashes too (its steps
	// then run on one worker; recording.Options.Stages).
	RecordStages bool
	// Listening is called once the socket is bound, before the first
	// turn, with the address and the certificate's pin; an error ends
	// the run.
	Listening func(addr, pin string) error
	// ExitWhenEmpty ends the run once the last player has left, after at
	// least one joined.
	ExitWhenEmpty bool
	// Probe, when set, watches the run (metrics, health, a fleet's
	// lifecycle).
	Probe Probe
}

// receiveBudget bounds the time a turn spends on what arrived: well
// inside the 2 ms a turn may take.
const receiveBudget = time.Millisecond

// ListenError is a socket that could not be bound (the address in use,
// not this machine's).
type ListenError struct{ Err error }

func (e *ListenError) Error() string { return e.Err.Error() }

// Unwrap returns the transport's reason.
func (e *ListenError) Unwrap() error { return e.Err }

// Run serves cfg's world to clients over QUIC in real time, one turn of
// the host a tick, until ctl stops it or cfg.Seconds pass, then closes
// every connection and returns what it served.
func Run(cfg Config, ctl *runctl.Control) (*Summary, error) {
	if cfg.Listening == nil {
		return nil, errors.New("serve: Config.Listening is nil: it must be set")
	}
	scfg := server.DefaultConfig()
	scfg.BytesPerSecond = cfg.BudgetKbps * 1000 / 8
	scfg.Empty = true
	srv := server.New(cfg.World, cfg.Scene, cfg.Mode, scfg)
	ln, err := transport.Listen(cfg.Listen, &transport.Options{MaxConnsPerAddr: cfg.PerAddress})
	if err != nil {
		return nil, &ListenError{Err: err}
	}
	var rec *recording.File
	if cfg.Record != "" {
		rec, err = recording.Server(cfg.Record, recording.Options{FullEvery: cfg.FullEvery, Stages: cfg.RecordStages}, srv, cfg.World.Config(), struct {
			Server     string  `json:"server"`
			SnapshotHz int     `json:"snapshot_hz"`
			BudgetKbps float64 `json:"budget_kbps"`
		}{ln.BoundAddr(), cfg.SnapshotHz, cfg.BudgetKbps})
		if err != nil {
			ln.Close()
			return nil, err
		}
	}
	watch := serverlog.NewWatch(ln)
	host, err := server.NewHost(srv, watch, cfg.SnapshotHz)
	if err != nil {
		ln.Close()
		rec.Close()
		return nil, err
	}
	r := &serverRun{cfg: &cfg, srv: srv, ln: ln, watch: watch, host: host, start: time.Now()}
	host.PerAddress, host.Budget = cfg.PerAddress, receiveBudget
	host.Clock = func() time.Duration { return time.Since(r.start) }
	r.log = serverlog.NewLog(watch, r.now)
	r.log.Attach(srv)
	r.countRepairs()
	if err := cfg.Listening(ln.BoundAddr(), ln.Pin()); err != nil {
		ln.Close()
		rec.Close()
		return nil, err
	}
	if cfg.Probe != nil {
		cfg.Probe.Serving(ln.BoundAddr())
	}
	runErr := r.loop(ctl, time.Duration(cfg.Seconds*float64(time.Second)))
	r.shutdown()
	if cfg.Probe != nil {
		var c Counters
		r.counters(&c)
		cfg.Probe.Stopped(&c, r.stopReason(ctl.Stopped()))
	}
	// A record cut short by a failed write is in the summary, not an
	// error: the server played on without it.
	if err := rec.Close(); err != nil && rec.Cut() == nil && runErr == nil {
		runErr = fmt.Errorf("%s: %w", cfg.Record, err)
	}
	if runErr != nil {
		return nil, runErr
	}
	m := r.summary(ctl)
	if c := rec.Cut(); c != nil {
		m.RecordCut = c.Error()
	}
	return m, nil
}

// serverRun is a server running in real time.
type serverRun struct {
	cfg   *Config
	srv   *server.Server
	ln    *transport.QUICServer
	watch *serverlog.Watch
	host  *server.Host
	log   *serverlog.Log
	start time.Time
	pace  tick.Pacer
	turns uint64
	times durations // each turn's duration
	at    time.Duration
	// repairsTaken sums the transfers taken by clients that have left.
	repairsTaken uint64
	empty        bool // the run ended because its last player left
}

// now returns the server's clock: the time of the turn under way.
func (r *serverRun) now() time.Duration { return r.at }

// loop runs a turn of the host every tick until a signal comes or, when
// end is not 0, the server has served that long.
func (r *serverRun) loop(ctl *runctl.Control, end time.Duration) error {
	interval := tick.Duration(r.srv.World().Config().Dt)
	read := r.counters // one method value for every turn's Probe call
	for end == 0 || r.pace.Next() < end {
		if d := r.pace.Wait(time.Since(r.start), interval); d > 0 {
			if ctl.Sleep(d) {
				return nil
			}
			continue
		}
		if ctl.Signalled() {
			return nil
		}
		r.at = r.pace.Turn(interval)
		t0 := time.Now()
		err := r.host.Turn(r.at)
		d := time.Since(t0)
		r.times.add(d)
		r.turns++
		if err != nil {
			return err
		}
		if r.cfg.Probe != nil {
			r.cfg.Probe.Turned(d, read)
		}
		if r.emptied() {
			r.empty = true
			return nil
		}
	}
	return nil
}

// shutdown closes the transport (every client is told "server closed")
// and lets the server see its clients go: those whose end the transport
// reported, then every one still in a slot, whose end the transport may
// not have reported yet (its connection's goroutine had not seen the
// close), so that each player's record holds what the server counted for
// it, never zeros.
func (r *serverRun) shutdown() {
	_ = r.ln.Close()
	r.log.Stopping = true
	for _, e := range r.watch.Events(nil) {
		if e.Kind == transport.Gone {
			r.srv.Leave(uint32(e.Peer))
		}
	}
	for _, conn := range r.log.StillThere() {
		r.srv.Leave(conn)
	}
}
