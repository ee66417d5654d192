package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/wire"
)

// TestInputsGoEvenWhenTheServerCaughtUp: a client whose newest server
// message is of its own tick (it stalled, and the server's clock caught up
// with it) still sends a message the server takes: its newest input, with
// the ack. It sent an Input without inputs, which the server rejected as
// malformed (the window client's rejections after its frames stalled).
func TestInputsGoEvenWhenTheServerCaughtUp(t *testing.T) {
	for _, mode := range []Mode{StateSync, InputSync} {
		h := newHarness(t, "arena", game.Options{}, mode, 0)
		h.run(20, 0)
		c := h.c
		c.view.newest, c.in.confirmed = c.Tick(), c.Tick()
		var sent [][]byte
		if err := c.sendInputs(func(b []byte) { sent = append(sent, append([]byte(nil), b...)) }); err != nil {
			t.Fatal(err)
		}
		if len(sent) != 1 {
			t.Fatalf("%v: %d messages sent, want 1", mode, len(sent))
		}
		var m wire.Input
		if err := wire.DecodeInput(sent[0], &m); err != nil {
			t.Fatalf("%v: the message does not decode: %v", mode, err)
		}
		if len(m.Inputs) != 1 || m.First != c.Tick()-1 || m.Ack != c.Tick() {
			t.Errorf("%v: %d inputs from tick %d, ack %d; want the newest input (tick %d) with ack %d", mode, len(m.Inputs), m.First, m.Ack, c.Tick()-1, c.Tick())
		}
		if err := h.s.Receive(h.now, 1, sent[0]); err != nil || h.s.Stats.Rejected.Total() != 0 {
			t.Errorf("%v: the server took it with %v, rejected %v", mode, err, h.s.Stats.Rejected.String())
		}
	}
}
