package predict

import (
	"math"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

func TestRelayMatchesThePrediction(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, InputSync, 0)
	h.run(300, 4)
	st := h.c.Stats
	if st.Corrections+st.Resyncs != 0 || st.StatesReceived < 250 || !h.c.InSync() {
		t.Fatalf("stats %+v, in sync %v", st, h.c.InSync())
	}
	if h.c.InFlight() > 6 || h.c.in.confirmed != h.s.Tick()-4 && h.c.in.confirmed != h.s.Tick()-5 {
		t.Fatalf("in flight %d, confirmed %d, server at %d", h.c.InFlight(), h.c.in.confirmed, h.s.Tick())
	}
}

// TestRelayRollsBackToTheEvent: a nudge reaches the client as an event of
// a relay; the client rolls back to the tick of the event, replays with it,
// and its state is the server's.
func TestRelayRollsBackToTheEvent(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, InputSync, 0)
	h.run(100, 4)
	at := h.s.Tick()
	h.s.Nudge(0, physics.Vec3{X: 2, Y: 1})
	h.run(100, 4)
	st := h.c.Stats
	if st.Mispredicted[KindServer] != 1 || st.Corrections+st.Resyncs != 1 || st.Mispredicted[KindNondeterminism]+st.Mispredicted[KindUnverified] != 0 {
		t.Fatalf("mispredicted %v, corrections %d, resyncs %d", st.Mispredicted, st.Corrections, st.Resyncs)
	}
	if n := st.ReplayedTicks; n < 4 || n > 8 {
		t.Fatalf("replayed %d ticks from the nudge at %d, want the lag (4) or a few more", n, at)
	}
	T := h.s.Tick()
	if h.clientHash(T) != h.s.World().Hash() || !h.c.InSync() {
		t.Fatal("after the rollback the client's state is not the server's")
	}
}

// TestSkippedTicksInInputSync: without redundancy, lost inputs make the
// server skip ticks; the relay says which, and the client replays them as
// skips and agrees with the server.
func TestSkippedTicksInInputSync(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, InputSync, 0)
	h.c.Config.Redundancy = false
	for i := 0; i < 200; i++ {
		h.clientStep(script(h.c.Tick()))
		if i%7 == 3 {
			h.up = h.up[:0] // lost
		}
		h.deliverUp()
		h.serverSend(true)
		h.deliverDown()
	}
	st := h.c.Stats
	if h.s.Stats.SkippedTicks == 0 || st.Mispredicted[KindInput] == 0 || st.Mispredicted[KindNondeterminism]+st.Mispredicted[KindUnverified] != 0 {
		t.Fatalf("skipped %d, mispredicted %v", h.s.Stats.SkippedTicks, st.Mispredicted)
	}
	if !h.c.InSync() || h.clientHash(h.s.Tick()) != h.s.World().Hash() {
		t.Fatal("the client does not agree with the server after skips")
	}
}

// TestNondeterminismIsRepairedByATransfer: an ulp injected in the client's
// world is found at the next relay as nondeterminism; the client asks for
// the server's state, gets it in fragments, reports both states at the
// transfer's tick, and is in step again.
func TestNondeterminismIsRepairedByATransfer(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, InputSync, 0)
	h.c.KeepStates = true
	h.c.Perturb = ulpAt(t, 100)
	var found *Misprediction
	var diff *Misprediction
	h.c.OnMispredict = func(m *Misprediction) {
		if m.Kind == KindNondeterminism && found == nil {
			c := *m
			found = &c
		}
	}
	h.c.OnDiff = func(m *Misprediction) { c := *m; diff = &c }
	h.run(150, 2)
	h.c.Perturb = nil
	h.run(100, 2)
	if found == nil || found.Tick <= 100 || found.From > 101 {
		t.Fatalf("the ulp injected at 100 was not found right after it: %+v", found)
	}
	if h.s.Stats.Transfers != 1 || h.c.Stats.Transfers != 1 || diff == nil {
		t.Fatalf("transfers: server %d, client %d, diff %v", h.s.Stats.Transfers, h.c.Stats.Transfers, diff != nil)
	}
	d := physics.Diff(diff.Predicted, diff.Server, 0)
	if len(d) == 0 || d[0].Where != "body 0" {
		t.Fatalf("the diff at %d names %v", diff.DiffTick, d)
	}
	if !h.c.InSync() || h.clientHash(h.s.Tick()) != h.s.World().Hash() {
		t.Fatal("the transfer did not bring the client back in step")
	}
}

// TestJoinByTransfer: a client that joins a server whose world has moved
// gets the whole state first and predicts from there.
func TestJoinByTransfer(t *testing.T) {
	for _, mode := range []Mode{StateSync, InputSync} {
		h := newHarness(t, "cubes", game.Options{}, mode, 0)
		h.run(100, 2)
		// A second client for the same server: the first leaves.
		w, sc := game.MustBuild("cubes")
		cfg := DefaultClientConfig()
		cfg.Mode = mode
		h.c = NewClient(cfg, w, sc, 99)
		h.s.Leave(1)
		for i := 0; i < 400 && !h.c.Joined(); i++ {
			h.clientStep(0)
			h.deliverUp()
			h.serverSend(false)
			h.deliverDown()
		}
		if !h.c.Joined() || h.c.Stats.Transfers != 1 {
			t.Fatalf("%v: joined %v after a transfer (%d)", mode, h.c.Joined(), h.c.Stats.Transfers)
		}
		if h.c.World().Hash() != h.s.World().Hash() {
			t.Fatalf("%v: the joining client does not start from the server's state", mode)
		}
		h.run(100, 2)
		if !h.c.InSync() || h.clientHash(h.s.Tick()) != h.s.World().Hash() {
			t.Fatalf("%v: out of step after joining by transfer", mode)
		}
	}
}

// ulpAt returns a Client.Perturb hook that moves the player's cube by one
// ulp along X after the step of tick at only: a client whose physics is no
// longer the server's, once.
func ulpAt(t *testing.T, at uint32) func(w *physics.World, tick uint32, body int) {
	return func(w *physics.World, tick uint32, body int) {
		if tick != at {
			return
		}
		b := w.Body(body)
		if err := w.SetMotion(body, physics.Vec3{X: math.Nextafter(b.Pos.X, math.Inf(1)), Y: b.Pos.Y, Z: b.Pos.Z}, b.Rot, b.Vel, b.AngVel); err != nil {
			t.Fatalf("moving body %d by one ulp: %v", body, err)
		}
	}
}
