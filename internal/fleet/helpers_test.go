package fleet

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/internal/serve"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Unix(1_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// run is a serve.Run under way in the test, on loopback.
type run struct {
	addr, pin string
	ctl       *runctl.Control
	done      chan struct{}
	sum       *serve.Summary
	err       error
}

// startRun runs serve.Run for the arena with probe on 127.0.0.1:0 and
// waits for it to listen.
func startRun(t *testing.T, probe serve.Probe, exitWhenEmpty bool) *run {
	t.Helper()
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := &run{ctl: runctl.Quiet(), done: make(chan struct{})}
	listening := make(chan struct{})
	go func() {
		defer close(r.done)
		r.sum, r.err = serve.Run(serve.Config{Listen: "127.0.0.1:0", World: w, Scene: sc, Mode: predict.StateSync,
			SnapshotHz: 64, BudgetKbps: server.DefaultDownBudget * 8 / 1000, PerAddress: 16, ExitWhenEmpty: exitWhenEmpty, Probe: probe,
			Listening: func(addr, pin string) error {
				r.addr, r.pin = addr, pin
				close(listening)
				return nil
			}}, r.ctl)
	}()
	select {
	case <-listening:
	case <-r.done:
		t.Fatalf("the server did not listen: %v", r.err)
	}
	t.Cleanup(r.stop)
	return r
}

// stop ends the run as SIGTERM would, once.
func (r *run) stop() {
	select {
	case <-r.done:
	default:
		r.ctl.Deliver(sigterm)
		<-r.done
	}
}

// playClient runs one autopilot client against r for seconds of play.
func playClient(t *testing.T, r *run, seconds float64) *netclient.Report {
	t.Helper()
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	ccfg := predict.DefaultClientConfig()
	ccfg.Mode, ccfg.TimeSync = predict.StateSync, true
	c := netclient.NewClient(ccfg, w, sc)
	conn, err := netclient.Dial(netclient.Target{Addr: r.addr, Pin: r.pin, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p, _ := netsim.PresetByName("perfect")
	rep, err := netclient.Run(netclient.Config{Addr: r.addr, Conn: conn, Client: c, Preset: p, Seed: 1, Seconds: seconds}, runctl.Quiet())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// get answers a GET of path from h.
func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(b)
}
