package predict

import (
	"bytes"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/server"
)

// script is a varied input sequence: replaying it with the wrong input for
// any tick shows.
func script(t uint32) game.Input {
	return game.Input((t*7 + t/5) % 16)
}

// harness connects a client and a server directly: a test decides when
// each side's messages are delivered, and can drop or alter them.
type harness struct {
	t        testing.TB
	c        *Client
	s        *server.Server
	up, down [][]byte
	now      time.Duration
	// noRelays drops the relays a state-sync server sends with one player
	// (the server's events), so that a client learns of a nudge only from
	// the snapshots: the path a test of snapshot corrections follows.
	noRelays bool
}

// inputDriven is the original demo's server: it steps when the one
// client's inputs arrive, so that a test decides when it steps.
func inputDriven() server.Config {
	c := server.DefaultConfig()
	c.Clocked, c.AheadMargin, c.BytesPerSecond, c.Timeout = false, 64, 0, 0
	return c
}

// newHarness builds the scene twice at tick start and joins the client.
func newHarness(t testing.TB, scene string, o game.Options, mode Mode, start uint32) *harness {
	t.Helper()
	h := &harness{t: t}
	var worlds [2]*physics.World
	var scenes [2]*game.Scene
	for i := range worlds {
		w, sc, err := game.Build(scene, physics.DefaultConfig(), o)
		if err != nil {
			t.Fatal(err)
		}
		w.SkipTo(start)
		worlds[i], scenes[i] = w, sc
	}
	cfg := DefaultClientConfig()
	cfg.Mode = mode
	h.c = NewClient(cfg, worlds[0], scenes[0], 77)
	h.s = server.New(worlds[1], scenes[1], mode, inputDriven())
	h.s.BytesPerSecond = 0
	h.clientStep(0) // the Hello
	h.deliverUp()
	h.serverSend(false) // the Welcome
	h.deliverDown()
	if !h.c.Joined() || h.c.Tick() != start {
		t.Fatalf("client not joined at tick %d: joined %v, tick %d", start, h.c.Joined(), h.c.Tick())
	}
	return h
}

func (h *harness) clientStep(in game.Input) {
	h.t.Helper()
	if err := h.c.Step(in, func(b []byte) { h.up = append(h.up, bytes.Clone(b)) }); err != nil {
		h.t.Fatal(err)
	}
	h.now += 15625 * time.Microsecond
}

// deliverUp hands the server every message the client sent.
func (h *harness) deliverUp() {
	h.t.Helper()
	for _, b := range h.up {
		if err := h.s.Receive(h.now, 1, b); err != nil {
			h.t.Fatal(err)
		}
	}
	h.up = h.up[:0]
}

// serverSend collects what the server sends now.
func (h *harness) serverSend(snapshot bool) {
	h.s.Send(h.now, snapshot, func(_ uint32, b []byte) { h.down = append(h.down, bytes.Clone(b)) })
}

// deliverDown hands the client every message the server sent.
func (h *harness) deliverDown() {
	h.t.Helper()
	for _, b := range h.down {
		if k, _ := wire.Kind(b); h.noRelays && k == wire.KindRelay {
			continue
		}
		if err := h.c.Receive(b); err != nil {
			h.t.Fatal(err)
		}
	}
	h.down = h.down[:0]
}

// run predicts n ticks with script, delivering the inputs each tick; every
// tick the server snapshots (or relays), delivered after lag ticks.
func (h *harness) run(n int, lag int) {
	h.t.Helper()
	var queue [][][]byte
	for i := 0; i < n; i++ {
		h.clientStep(script(h.c.Tick()))
		h.deliverUp()
		h.serverSend(true)
		queue = append(queue, h.down)
		h.down = nil
		if len(queue) > lag {
			h.down = queue[0]
			queue = queue[1:]
			h.deliverDown()
		}
	}
}

// clientHash returns the client's hash of the state labelled t.
func (h *harness) clientHash(t uint32) uint64 {
	v, ok := h.c.hist.hashes.Get(t)
	if !ok {
		h.t.Fatalf("the client holds no hash for tick %d", t)
	}
	return *v
}
