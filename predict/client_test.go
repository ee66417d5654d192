package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/server"
)

func TestJoinChecksTheScene(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 500)
	if h.c.InFlight() != 0 || !h.c.InSync() {
		t.Fatalf("fresh client: in flight %d, in sync %v", h.c.InFlight(), h.c.InSync())
	}
	// Another scene, and the other mode, are refused.
	for _, c := range []struct {
		name string
		mode Mode
		want string
	}{{"stack", StateSync, "another scene"}, {"arena", InputSync, "other sync mode"}} {
		wc, sc := game.MustBuild(c.name)
		cfg := DefaultClientConfig()
		cfg.Mode = c.mode
		cl := NewClient(cfg, wc, sc, 5)
		var hello []byte
		if err := cl.Step(0, func(b []byte) { hello = append([]byte(nil), b...) }); err != nil {
			t.Fatal(err)
		}
		ws, ss := game.MustBuild("arena")
		srv := server.New(ws, ss, StateSync, inputDriven())
		if err := srv.Receive(0, 1, hello); err != nil {
			t.Fatal(err)
		}
		var err error
		srv.Send(0, false, func(_ uint32, b []byte) { err = cl.Receive(b) })
		if !errors.Is(err, ErrRefused) || !contains(err.Error(), c.want) || cl.Joined() {
			t.Errorf("%s in %s: %v", c.name, c.mode, err)
		}
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (s[:len(sub)] == sub || contains(s[1:], sub))
}

func TestMatchingSnapshotNeedsNoCorrection(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.run(200, 5)
	st := h.c.Stats
	if st.Corrections+st.Resyncs != 0 || st.StatesReceived < 190 || !h.c.InSync() {
		t.Fatalf("stats %+v, in sync %v", st, h.c.InSync())
	}
	if h.c.InFlight() > 7 {
		t.Fatalf("in flight %d with a lag of 5", h.c.InFlight())
	}
}

// TestCorrectionIsBitIdentical nudges the server's cube: the client, told
// by a snapshot that carries the cube and its contacts, ends with exactly
// the server's state, so the next snapshots match its prediction again.
func TestCorrectionIsBitIdentical(t *testing.T) {
	for _, o := range []game.Options{{}, {Quantize: true}} {
		h := newHarness(t, "arena", o, StateSync, 0)
		h.run(100, 3)
		h.s.Nudge(0, physics.Vec3{X: 2, Y: 1})
		h.run(100, 3)
		st := h.c.Stats
		if st.Corrections == 0 || st.Mispredicted[KindServer] == 0 {
			t.Fatalf("quantize %v: the nudge was not corrected: %+v", o.Quantize, st)
		}
		if n := st.Mispredicted[KindServer] + st.Mispredicted[KindInput] + st.Mispredicted[KindNondeterminism] + st.Mispredicted[KindUnverified]; n != 1 {
			t.Fatalf("quantize %v: %d mispredictions for one nudge: %v", o.Quantize, n, st.Mispredicted)
		}
		T := h.s.Tick()
		if h.clientHash(T) != h.s.World().Hash() || !h.c.InSync() {
			t.Fatalf("quantize %v: after the correction the client's state at %d is not the server's", o.Quantize, T)
		}
	}
}

// TestReplayUsesTheBufferedInputOfEachTick: a snapshot that shows a nudge
// (its relay lost) rewinds the client to the server's state and replays
// each tick since with the input buffered for it.
func TestReplayUsesTheBufferedInputOfEachTick(t *testing.T) {
	const start = 1000
	h := newHarness(t, "arena", game.Options{}, StateSync, start)
	h.noRelays = true
	for i := 0; i < 10; i++ {
		h.clientStep(script(h.c.Tick()))
		h.deliverUp()
	}
	// The server is at 1010; nudge it and let it simulate 1010 only when
	// the client is at 1040.
	h.s.Nudge(0, physics.Vec3{X: 1})
	held := [][]byte{}
	for i := 0; i < 30; i++ {
		h.clientStep(script(h.c.Tick()))
		held = append(held, h.up...)
		h.up = h.up[:0]
	}
	for _, b := range held[:1] { // the input of 1010 only
		if err := h.s.Receive(h.now, 1, b); err != nil {
			t.Fatal(err)
		}
	}
	T := h.s.Tick()
	var server physics.State
	h.s.World().Save(&server)
	h.serverSend(true)
	h.deliverDown()
	now := h.c.Tick()
	if h.c.Stats.Corrections != 1 || h.c.Stats.ReplayedTicks != uint64(now-T) {
		t.Fatalf("corrections %d, replayed %d; want 1 and %d", h.c.Stats.Corrections, h.c.Stats.ReplayedTicks, now-T)
	}
	// Independently: the server's state, then the script's input for each
	// tick from T to now.
	right, sc := game.MustBuild("arena")
	wrong, _ := game.MustBuild("arena")
	for _, w := range []*physics.World{right, wrong} {
		if err := w.Restore(&server); err != nil {
			t.Fatal(err)
		}
	}
	for tk := T; tk != now; tk++ {
		if err := sc.Step1(right, script(tk)); err != nil {
			t.Fatal(err)
		}
		// The transcribed listing's bug: the current input every tick.
		if err := sc.Step1(wrong, script(now-1)); err != nil {
			t.Fatal(err)
		}
	}
	if h.c.World().Hash() != right.Hash() {
		t.Fatal("replay did not use the buffered input of each tick")
	}
	if right.Hash() == wrong.Hash() {
		t.Fatal("the test cannot tell the two replays apart")
	}
}

func TestStaleAndFutureSnapshots(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	for i := 0; i < 30; i++ {
		h.clientStep(script(h.c.Tick()))
	}
	h.deliverUp()
	h.serverSend(true)
	newer := h.down[0]
	h.down = nil
	// An older snapshot: the server before its last ticks.
	h2 := newHarness(t, "arena", game.Options{}, StateSync, 0)
	for i := 0; i < 20; i++ {
		h2.clientStep(script(h2.c.Tick()))
	}
	h2.deliverUp()
	h2.serverSend(true)
	older := h2.down[0]
	for _, b := range [][]byte{newer, newer, older} {
		if err := h.c.Receive(b); err != nil {
			t.Fatal(err)
		}
	}
	if st := h.c.Stats; st.StatesReceived != 1 || st.StaleStates != 2 {
		t.Fatalf("received %d stale %d; want 1, 2", st.StatesReceived, st.StaleStates)
	}
	// A snapshot from the future: a server further than the client, as at
	// the start before time sync put the client ahead. It is ignored.
	h3 := newHarness(t, "arena", game.Options{}, StateSync, 0)
	for i := 0; i < 60; i++ {
		h3.clientStep(script(h3.c.Tick()))
	}
	h3.deliverUp()
	h3.serverSend(true)
	before := h.c.World().Hash()
	if err := h.c.Receive(h3.down[0]); err != nil || h.c.Stats.Early != 1 || h.c.Stats.StatesReceived != 1 || h.c.World().Hash() != before {
		t.Fatalf("a snapshot from the future: %v, %+v", err, h.c.Stats)
	}
}

func TestLongOutageHoldsInsteadOfOverwriting(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	for i := 0; i < tick.RingSize+100; i++ {
		h.clientStep(script(h.c.Tick()))
	}
	if h.c.Stats.HeldTicks == 0 || h.c.InFlight() != tick.RingSize-1 {
		t.Fatalf("held %d, in flight %d", h.c.Stats.HeldTicks, h.c.InFlight())
	}
	// Everything arrives at once: the server takes a second's worth of
	// messages (server.InputBurstTicks) and refuses the rest as too fast;
	// the client's next message carries every input since the state it
	// took, and the server's next state puts it back on track.
	for range 2 {
		for _, b := range h.up {
			if err := h.s.Receive(h.now, 1, b); err != nil && !errors.Is(err, protocol.ErrRejected) {
				t.Fatal(err)
			}
		}
		h.up = h.up[:0]
		h.serverSend(true)
		h.deliverDown()
		h.clientStep(0)
	}
	h.deliverUp()
	h.serverSend(true)
	h.deliverDown()
	if h.c.InFlight() > 1 || !h.c.InSync() {
		t.Fatalf("after the outage: in flight %d, in sync %v", h.c.InFlight(), h.c.InSync())
	}
}

func TestRedundantInputsSinceNewestState(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	for i := 0; i < 10; i++ {
		h.clientStep(script(h.c.Tick()))
	}
	var m wire.Input
	if err := wire.DecodeInput(h.up[len(h.up)-1], &m); err != nil {
		t.Fatal(err)
	}
	if m.First != 0 || len(m.Inputs) != 10 || m.Ack != 0 || m.Flags&wire.AckInSync == 0 {
		t.Fatalf("inputs from %d, %d of them, ack %d, flags %b", m.First, len(m.Inputs), m.Ack, m.Flags)
	}
	for i, in := range m.Inputs {
		if in != script(uint32(i)) {
			t.Fatalf("input %d is %v, want %v", i, in, script(uint32(i)))
		}
	}
	h.deliverUp()
	h.serverSend(true)
	h.deliverDown()
	h.clientStep(0)
	if err := wire.DecodeInput(h.up[len(h.up)-1], &m); err != nil {
		t.Fatal(err)
	}
	if m.First != 10 || len(m.Inputs) != 1 || m.Ack != 10 {
		t.Fatalf("after a state for 10: inputs from %d, %d of them, ack %d", m.First, len(m.Inputs), m.Ack)
	}
	h.c.Config.Redundancy = false
	h.up = h.up[:0]
	h.clientStep(0)
	h.clientStep(0)
	if err := wire.DecodeInput(h.up[len(h.up)-1], &m); err != nil || len(m.Inputs) != 1 || m.First != 12 {
		t.Fatalf("without redundancy: %+v, %v", m, err)
	}
}

// TestBytesSentCountsEachMessage: BytesSent is the sum of the messages the
// client sent, also when a message is shorter than the one before (an
// acknowledgement trims the inputs said again).
func TestBytesSentCountsEachMessage(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	before := h.c.Stats.BytesSent
	h.up = h.up[:0]
	sum := 0
	for i := 0; i < 10; i++ {
		h.clientStep(script(h.c.Tick()))
	}
	for _, b := range h.up {
		sum += len(b)
	}
	h.deliverUp()
	h.serverSend(true)
	h.deliverDown()
	h.clientStep(0) // one input after the ack: shorter than the last message
	for _, b := range h.up {
		sum += len(b)
	}
	if got := h.c.Stats.BytesSent - before; got != uint64(sum) {
		t.Fatalf("BytesSent grew by %d, the messages sent hold %d bytes", got, sum)
	}
}

// TestInputSyncAsksForTransferWhenTheRingFills: an input-sync client that
// hears no relay for a whole ring holds, and asks for the server's whole
// state (the server may no longer hold the ticks since its confirmed one);
// a state-sync client holds without asking, as snapshots mend it.
func TestInputSyncAsksForTransferWhenTheRingFills(t *testing.T) {
	for _, mode := range []Mode{InputSync, StateSync} {
		h := newHarness(t, "arena", game.Options{}, mode, 0)
		for i := 0; i < tick.RingSize+10; i++ {
			h.clientStep(script(h.c.Tick()))
		}
		var m wire.Input
		if err := wire.DecodeInput(h.up[len(h.up)-1], &m); err != nil {
			t.Fatal(err)
		}
		if asks := m.Flags&wire.AskTransfer != 0; asks != (mode == InputSync) || h.c.Stats.HeldTicks == 0 {
			t.Errorf("%v: held %d ticks, asks for a transfer: %v", mode, h.c.Stats.HeldTicks, asks)
		}
	}
}

// TestSnapshotOfThePresentTick: a snapshot of the tick the client stands
// at, whose span's keyframe the client keeps only when it steps that
// tick, is compared with the world itself and corrects it; it is not
// refused as a tick that left the history.
func TestSnapshotOfThePresentTick(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.noRelays = true
	for h.c.Tick() < 2*KeyEvery-1 {
		h.clientStep(script(h.c.Tick()))
		h.deliverUp()
		h.serverSend(true)
		h.deliverDown()
	}
	h.s.Nudge(0, physics.Vec3{Y: 5})
	h.clientStep(script(h.c.Tick()))
	h.deliverUp()
	h.serverSend(true)
	if h.c.Tick() != 2*KeyEvery || h.s.Tick() != h.c.Tick() {
		t.Fatalf("client at %d, server at %d, want both at %d", h.c.Tick(), h.s.Tick(), 2*KeyEvery)
	}
	h.deliverDown() // fails the test on an error
	if h.c.Stats.Corrections == 0 || h.c.World().Hash() != h.s.World().Hash() {
		t.Fatalf("after the snapshot of the present: %d corrections, hashes %016x and %016x", h.c.Stats.Corrections, h.c.World().Hash(), h.s.World().Hash())
	}
}

// TestMatchingSnapshotEndsTheAsk: a state-sync client that asked for a
// repair and then predicts a snapshot's state bit for bit (the snapshots
// mended it) no longer asks: the repair would bring nothing.
func TestMatchingSnapshotEndsTheAsk(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.run(20, 0)
	h.c.view.askXfer = true
	h.clientStep(script(h.c.Tick())) // says it asks
	h.deliverUp()
	h.serverSend(true) // the repair's hashes, and a snapshot the client predicted
	h.deliverDown()
	if h.c.view.askXfer || !h.c.InSync() || h.c.Stats.Patches+h.c.Stats.Transfers != 0 {
		t.Fatalf("after a matching snapshot: asking %v, in sync %v, %d repairs taken", h.c.view.askXfer, h.c.InSync(), h.c.Stats.Patches+h.c.Stats.Transfers)
	}
}
