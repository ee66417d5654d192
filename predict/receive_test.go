package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// snapshotOf encodes a snapshot of tick with the given bodies against base.
func snapshotOf(tick, base uint32, hash uint64, bodies []wire.BodyUpdate, baseView []physics.BodyState) []byte {
	var w wire.SnapshotWriter
	w.Begin(nil, &wire.Snapshot{Tick: tick, Base: base, Hash: hash})
	for _, u := range bodies {
		w.Body(u.Index, &u.State, &baseView[u.Index], wire.MaxMessage)
	}
	return w.Finish(true, false)
}

func TestMessagesThatDoNotFitAreRejected(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	for i := 0; i < 40; i++ {
		h.clientStep(script(h.c.Tick()))
	}
	before := h.c.World().Hash()
	view := h.c.st.views.Start().Fill(nil)
	bad := view[0]
	bad.Rot.W = 3 // not unit length
	nan := view[0]
	nan.Vel.X = nan.Vel.X / 0 * 0
	far := view[0]
	far.Pos.Y = 1e300 // finite, and beyond anything the engine produces
	relay := func(players int) []byte {
		m := &wire.Relay{First: 0, Count: 1, Players: players, Inputs: make([]game.Input, players)}
		return wire.AppendRelay(nil, m, 1)
	}
	for _, c := range []struct {
		name string
		msg  []byte
		why  protocol.Reason
	}{
		{"garbage", []byte{wire.KindSnapshot, wire.Version, 1, 2, 3}, protocol.RejectMalformed},
		{"another version", []byte{wire.KindSnapshot, wire.Version + 1, 0, 0}, protocol.RejectMalformed},
		{"an input message", func() []byte { b, _ := wire.AppendInput(nil, &wire.Input{Inputs: []game.Input{1}}); return b }(), protocol.RejectMalformed},
		{"a static body", snapshotOf(20, 0, 1, []wire.BodyUpdate{{Index: 1, State: view[1]}}, view), protocol.RejectShape},
		{"an empty message", nil, protocol.RejectMalformed},
		{"an orientation not unit length", snapshotOf(20, 0, 1, []wire.BodyUpdate{{Index: 0, State: bad}}, view), protocol.RejectShape},
		{"a velocity that is not a number", snapshotOf(20, 0, 1, []wire.BodyUpdate{{Index: 0, State: nan}}, view), protocol.RejectBounds},
		{"a position beyond the scene's bounds", snapshotOf(20, 0, 1, []wire.BodyUpdate{{Index: 0, State: far}}, view), protocol.RejectBounds},
		{"further in the future than a ring", snapshotOf(40+tick.RingSize, 0, 1, nil, view), protocol.RejectTick},
	} {
		was := h.c.Stats.Rejected[c.why]
		err := h.c.Receive(c.msg)
		if !errors.Is(err, protocol.ErrRejected) {
			t.Errorf("%s: got %v, want a rejection", c.name, err)
		}
		if h.c.Stats.Rejected[c.why] != was+1 {
			t.Errorf("%s: not counted as %s: %v", c.name, c.why, h.c.Stats.Rejected)
		}
		if h.c.World().Hash() != before || h.c.Stats.StatesReceived != 0 {
			t.Fatalf("%s: a rejected message changed the client", c.name)
		}
	}
	// The client still takes a good snapshot afterwards.
	h.deliverUp()
	h.serverSend(true)
	h.deliverDown()
	if h.c.Stats.StatesReceived != 1 || !h.c.InSync() {
		t.Fatalf("good snapshot after the bad ones: %+v", h.c.Stats)
	}
	// In input sync: a relay for another number of players.
	hi := newHarness(t, "arena", game.Options{}, InputSync, 0)
	hi.clientStep(0)
	if err := hi.c.Receive(relay(2)); !errors.Is(err, protocol.ErrRejected) || hi.c.Stats.Rejected[protocol.RejectShape] != 1 {
		t.Fatalf("a relay for two players: %v", err)
	}
}
