package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/splitmix"
	"github.com/cubelab/cube/transport"
)

// joiner is one client of joinsRun: when it joins and leaves.
type joiner struct {
	join, leave time.Duration
	ep          *Endpoint
	conn        *transport.MemClient
	pilot       *game.Autopilot
	next        time.Duration
	gone        bool
}

// joinsRun plays clients that join and leave an Empty server at the given
// times over the named preset, and returns them. Each client pushes its
// cube with the autopilot until 10 s before it leaves.
func joinsRun(t *testing.T, mode predict.Mode, preset string, slots int, times [][2]time.Duration, end time.Duration, seed uint64) []*joiner {
	t.Helper()
	return joinsPlay(t, mode, preset, slots, times, end, seed, 10*time.Second, nil)
}

// joinsPlay is joinsRun with each client's autopilot stopping idle before
// it leaves, and watch, when set, called before each server turn.
func joinsPlay(t *testing.T, mode predict.Mode, preset string, slots int, times [][2]time.Duration, end time.Duration, seed uint64,
	idle time.Duration, watch func(now time.Duration, js []*joiner)) []*joiner {
	t.Helper()
	phys := physics.DefaultConfig()
	build := func() (*physics.World, *game.Scene) {
		w, sc, err := game.Build("arena", phys, game.Options{Players: slots})
		if err != nil {
			t.Fatal(err)
		}
		return w, sc
	}
	w, sc := build()
	net, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	scfg := server.DefaultConfig()
	scfg.Empty = true
	srv := server.New(w, sc, mode, scfg)
	host, err := server.NewHost(srv, net, 64)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := netsim.PresetByName(preset)
	td := tick.Duration(phys.Dt)
	var js []*joiner
	for i, tm := range times {
		cw, csc := build()
		cfg := predict.DefaultClientConfig()
		cfg.Mode, cfg.TimeSync = mode, true
		c := predict.NewClient(cfg, cw, csc, splitmix.Next(&seed))
		j := &joiner{join: tm[0], leave: tm[1], next: tm[0], pilot: game.NewAutopilot(csc, uint64(i+1))}
		j.ep = NewEndpoint(c, nil)
		js = append(js, j)
	}
	var now, serverNext time.Duration
	for now < end {
		// The earliest turn; clients first at the same instant.
		who, at := -1, serverNext
		for i, j := range js {
			if !j.gone && j.next < at {
				who, at = i, j.next
			}
		}
		now = at
		if who < 0 {
			if watch != nil {
				watch(now, js)
			}
			if err := host.Turn(now); err != nil {
				t.Fatal(err)
			}
			serverNext += td
			continue
		}
		j := js[who]
		c := j.ep.Client
		if j.conn == nil {
			if j.conn, err = net.Connect(splitmix.Next(&seed)); err != nil {
				t.Fatal(err)
			}
			if err := j.conn.SetConditions(p.Conditions, p.Conditions); err != nil {
				t.Fatal(err)
			}
			j.ep.Net = j.conn
			c.Clock = func() time.Duration { return now }
		}
		if now >= j.leave {
			j.conn.Close()
			j.gone = true
			continue
		}
		in := game.Input(0)
		if now < j.leave-idle {
			in = j.pilot.Input(c.World().Body(c.Body()))
		}
		if err := j.ep.Turn(now, in); err != nil {
			t.Fatal(err)
		}
		j.next += time.Duration(float64(td) / c.Sync.Speed)
	}
	return js
}

// TestClientsJoinAndLeaveAnEmptyServer: clients come and go at different
// times on a server whose empty slots have no cube; every join and leave
// is an event each client sees, and none may look like nondeterminism. In
// the second run four clients join within 50 ms: a client once took the
// relayed input of a player whose cube had not come back yet in its
// prediction, and the step failed on the cube out of the world. In the
// third, twelve clients come and go two seconds apart: in state sync, a
// transfer older than the newest snapshot, with a join or a leave between
// the two, once left the client believing its replay gave the server's
// state, and the next snapshot was taken for nondeterminism.
func TestClientsJoinAndLeaveAnEmptyServer(t *testing.T) {
	s, ms := time.Second, time.Millisecond
	var churn [][2]time.Duration
	for i := range 12 {
		churn = append(churn, [2]time.Duration{time.Duration(i) * 2 * s, time.Duration(i)*2*s + 14*s})
	}
	runs := []struct {
		slots int
		times [][2]time.Duration
		end   time.Duration
		seed  uint64
	}{
		{4, [][2]time.Duration{{0, 40 * s}, {250 * ms, 41 * s}, {280 * ms, 42 * s}, {5 * s, 30 * s}, {31 * s, 50 * s}}, 60 * s, 7},
		{8, [][2]time.Duration{{0, 21 * s}, {5 * ms, 22 * s}, {30 * ms, 21500 * ms}, {45 * ms, 22200 * ms}}, 30 * s, 1},
		{8, churn, 45 * s, 3},
	}
	for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
		for k, r := range runs {
			js := joinsRun(t, mode, "bad", r.slots, r.times, r.end, r.seed)
			for i, j := range js {
				c := j.ep.Client
				m := c.Stats.Mispredicted
				t.Logf("%v, run %d, client %d: %d states, mispredicted %v, %d transfers", mode, k, i, c.Stats.StatesReceived, m, c.Stats.Transfers)
				if m[predict.KindNondeterminism] != 0 || c.Stats.StatesReceived == 0 || c.Stats.Rejected.Total() != 0 {
					t.Errorf("%v, run %d, client %d: %d nondeterminism, %d states, %d rejected", mode, k, i, m[predict.KindNondeterminism],
						c.Stats.StatesReceived, c.Stats.Rejected.Total())
				}
			}
		}
	}
}
