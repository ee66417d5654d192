package main

import (
	"errors"
	"fmt"
	"github.com/cubelab/cube/internal/lab"
	"github.com/cubelab/cube/internal/serverlog"
	"io"
	"math"
	"syscall"
	"time"

	"github.com/cubelab/cube/internal/tick"
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
}

// Defaults and bounds of the server's network limits.
const (
	// defaultPerAddress lets a loopback test run a server's 8 players and
	// a few more connections from 127.0.0.1.
	defaultPerAddress = 16
	// receiveBudget bounds the time a turn spends on what arrived: well
	// inside the 2 ms a turn may take.
	receiveBudget = time.Millisecond
)

func runServer(args []string, stdout, stderr io.Writer) error {
	ctl := newRunControl(stderr)
	defer ctl.stop()
	return serve(args, stdout, stderr, ctl)
}

// serve is `cube server` with its signals from ctl: the tests send it
// theirs the way a signal arrives.
func serve(args []string, stdout, stderr io.Writer, ctl *runControl) error {
	fs := newFlags("server", "server [-listen ADDR] [-scene NAME] [-bodies N] [-quantize] [-sync state|inputs] [-max-players N] [-snapshot-hz H] [-budget-kbps K] [-seconds S] [-record FILE [-full-every N]] [-per-address N] [-workers N] [-json]", stderr)
	var f serveFlags
	fs.StringVar(&f.listen, "listen", "127.0.0.1:4242", "UDP address to listen on: 127.0.0.1:0 picks a free port; 0.0.0.0:4242 or [::]:4242 takes clients from other machines")
	f.scene.register(fs)
	fs.IntVar(&f.snapshotHz, "snapshot-hz", 64, fmt.Sprintf("snapshot (and relay) rate in Hz, one of %v", server.SnapshotRates))
	fs.Float64Var(&f.budgetKbps, "budget-kbps", server.DefaultDownBudget*8/1000, "each client's snapshot budget in kbit/s (state sync), 0 for none: one datagram a snapshot at most")
	fs.Float64Var(&f.seconds, "seconds", 0, fmt.Sprintf("serve for this many seconds, 0 to %d (0: until SIGINT or SIGTERM)", maxSimSeconds))
	f.record.register(fs)
	fs.BoolVar(&f.json, "json", false, "print the summary as one JSON object")
	fs.IntVar(&f.perAddress, "per-address", defaultPerAddress, fmt.Sprintf("most connections, and most player slots, one IP address may hold at once, 1 to %d", transport.DefaultMaxConns))
	if err := fs.parse(args); err != nil {
		return err
	}
	if f.perAddress < 1 || f.perAddress > transport.DefaultMaxConns {
		return usagef("-per-address %d is out of range: want 1 to %d", f.perAddress, transport.DefaultMaxConns)
	}
	if err := checkHostPort("-listen", f.listen, 0); err != nil {
		return err
	}
	if !server.ValidSnapshotRate(f.snapshotHz) {
		return usagef("-snapshot-hz %d is not a snapshot rate: want one of %v", f.snapshotHz, server.SnapshotRates)
	}
	if math.IsNaN(f.budgetKbps) || f.budgetKbps < 0 || f.budgetKbps > 1e6 {
		return usagef("-budget-kbps %v is out of range: want 0 (none) to 1000000", f.budgetKbps)
	}
	if math.IsNaN(f.seconds) || f.seconds < 0 || f.seconds > maxSimSeconds {
		return usagef("-seconds %v is out of range: want 0 (until a signal) to %d", f.seconds, maxSimSeconds)
	}
	if err := f.record.check(); err != nil {
		return err
	}
	w, sc, mode, err := f.scene.build()
	if err != nil {
		return err
	}
	cfg := server.DefaultConfig()
	cfg.BytesPerSecond = f.budgetKbps * 1000 / 8
	cfg.Empty = true
	srv := server.New(w, sc, mode, cfg)

	quietQUIC()
	ln, err := transport.Listen(f.listen, &transport.Options{MaxConnsPerAddr: f.perAddress})
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return exitError{code: 1, msg: fmt.Sprintf("%s is in use (another server?): pick another -listen port, or port 0 for a free one", f.listen)}
		}
		return exitError{code: 1, msg: err.Error()}
	}
	var rec *recording
	if f.record.path != "" {
		rec, err = recordServer(f.record.path, uint32(f.record.fullEvery), srv, w.Config(), struct {
			Server     string  `json:"server"`
			SnapshotHz int     `json:"snapshot_hz"`
			BudgetKbps float64 `json:"budget_kbps"`
		}{ln.BoundAddr(), f.snapshotHz, f.budgetKbps})
		if err != nil {
			ln.Close()
			return err
		}
	}
	watch := serverlog.NewWatch(ln)
	host, err := server.NewHost(srv, watch, f.snapshotHz)
	if err != nil {
		ln.Close()
		return err
	}
	r := &serverRun{flags: &f, srv: srv, ln: ln, watch: watch, host: host, start: time.Now()}
	host.PerAddress, host.Budget = f.perAddress, receiveBudget
	host.Clock = func() time.Duration { return time.Since(r.start) }
	r.log = serverlog.NewLog(watch, r.now)
	r.log.Attach(srv)
	if _, err := fmt.Fprintf(stdout, "listening %s pin %s\n", ln.BoundAddr(), ln.Pin()); err != nil {
		ln.Close()
		rec.close()
		return fmt.Errorf("writing the listening line: %w", err)
	}
	runErr := r.loop(ctl, time.Duration(f.seconds*float64(time.Second)))
	r.shutdown()
	if err := rec.close(); err != nil && runErr == nil {
		runErr = fmt.Errorf("%s: %w", f.record.path, err)
	}
	if runErr != nil {
		return runErr
	}
	sum := r.summary(ctl)
	if f.json {
		return writeJSON(stdout, sum)
	}
	printServerSummary(stdout, &sum)
	return nil
}

// serverRun is a server running in real time.
type serverRun struct {
	flags *serveFlags
	srv   *server.Server
	ln    *transport.QUICServer
	watch *serverlog.Watch
	host  *server.Host
	log   *serverlog.Log
	start time.Time
	pace  lab.Pacer
	turns uint64
	times durations // each turn's duration
	at    time.Duration
}

// now returns the server's clock: the time of the turn under way.
func (r *serverRun) now() time.Duration { return r.at }

// loop runs a turn of the host every tick until a signal comes or, when
// end is not 0, the server has served that long.
func (r *serverRun) loop(ctl *runControl, end time.Duration) error {
	interval := tick.Duration(r.srv.World().Config())
	for end == 0 || r.pace.Next() < end {
		if d := r.pace.Wait(time.Since(r.start), interval); d > 0 {
			if ctl.sleep(d) {
				return nil
			}
			continue
		}
		if ctl.signalled() {
			return nil
		}
		r.at = r.pace.Turn(interval)
		t0 := time.Now()
		err := r.host.Turn(r.at)
		r.times.add(time.Since(t0))
		r.turns++
		if err != nil {
			return err
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
