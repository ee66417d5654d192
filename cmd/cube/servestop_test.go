//go:build cgo

package main

import (
	"io"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/ui/lab"
)

// TestStoppedServerCountsAConnectedPlayer: a window's client still in its
// slot when the server stops (SIGINT) has its inputs counted in the
// server's summary, the same as the totals, and is said to have been
// there until the stop; it never shows zeros as "still there". Five runs,
// since the transport's report of the connection's end races the stop.
func TestStoppedServerCountsAConnectedPlayer(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	for run := range 5 {
		srv := startServer(t, "-json")
		fs := cli.NewFlags("window", "", io.Discard)
		wf := registerWindowFlags(fs)
		if err := fs.Parse([]string{"-connect", srv.addr, "-pin", srv.pin, "-autopilot"}); err != nil {
			t.Fatal(err)
		}
		wf.set = map[string]bool{"connect": true, "pin": true, "autopilot": true}
		if _, err := wf.check(); err != nil {
			t.Fatal(err)
		}
		r, err := dialWindow(wf, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		l := lab.NewRemote(r, true, 0, 1)
		last := time.Now()
		for start := time.Now(); time.Since(start) < time.Second; {
			time.Sleep(time.Second / 60)
			now := time.Now()
			if err := l.Frame(now.Sub(last).Seconds()); err != nil {
				t.Fatal(err)
			}
			last = now
		}
		if !l.Client().Joined() {
			t.Fatalf("run %d: not joined after 1 s", run)
		}
		m := srv.stop(t) // the window is still connected
		r.Close()
		if len(m.PerPlayer) != 1 || m.Inputs.Applied == 0 {
			t.Fatalf("run %d: %d player records, %d inputs applied", run, len(m.PerPlayer), m.Inputs.Applied)
		}
		p := m.PerPlayer[0]
		if p.Applied != m.Inputs.Applied || p.Left < 0 || p.How != "there until the server stopped" || p.BufferP95 == 0 {
			t.Errorf("run %d: player %+v, server applied %d inputs", run, p, m.Inputs.Applied)
		}
		if m.Players.Left != 1 {
			t.Errorf("run %d: players %+v", run, m.Players)
		}
	}
}
