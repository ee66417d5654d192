package session

import (
	"bytes"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
)

// direct joins one state-sync client to an input-driven server with no
// link between them: every message arrives at once, in order, when the
// test says.
type direct struct {
	t   testing.TB
	c   *predict.Client
	s   *server.Server
	now time.Duration
}

// newDirect builds scene for both ends and joins the client.
func newDirect(t testing.TB, scene string, o game.Options) *direct {
	t.Helper()
	build := func() (*physics.World, *game.Scene) {
		w, sc, err := game.Build(scene, physics.DefaultConfig(), o)
		if err != nil {
			t.Fatal(err)
		}
		return w, sc
	}
	cw, csc := build()
	sw, ssc := build()
	scfg := server.DefaultConfig()
	scfg.Clocked, scfg.AheadMargin, scfg.BytesPerSecond, scfg.Timeout = false, 64, 0, 0
	h := &direct{t: t, c: predict.NewClient(predict.DefaultClientConfig(), cw, csc, 77), s: server.New(sw, ssc, predict.StateSync, scfg)}
	h.up(0) // the Hello
	h.deliver(h.down(false))
	if !h.c.Joined() {
		t.Fatal("the client did not join")
	}
	return h
}

// up steps the client with in and hands the server what it sent.
func (h *direct) up(in game.Input) {
	h.t.Helper()
	var sent [][]byte
	if err := h.c.Step(in, func(b []byte) { sent = append(sent, bytes.Clone(b)) }); err != nil {
		h.t.Fatal(err)
	}
	h.now += 15625 * time.Microsecond
	for _, b := range sent {
		if err := h.s.Receive(h.now, 1, b); err != nil {
			h.t.Fatal(err)
		}
	}
}

// down returns what the server sends now (with a snapshot when snapshot).
func (h *direct) down(snapshot bool) [][]byte {
	var msgs [][]byte
	h.s.Send(h.now, snapshot, func(_ uint32, b []byte) { msgs = append(msgs, bytes.Clone(b)) })
	return msgs
}

// deliver hands the client msgs.
func (h *direct) deliver(msgs [][]byte) {
	h.t.Helper()
	for _, b := range msgs {
		if err := h.c.Receive(b); err != nil {
			h.t.Fatal(err)
		}
	}
}
