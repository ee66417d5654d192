package predict

import (
	"errors"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// script is a varied input sequence: replaying it with the wrong input for
// any tick shows.
func script(t uint32) game.Input {
	return game.Input((t*7 + t/5) % 16)
}

// serverState returns the state message a server would send for tick T after
// applying script's inputs, with a nudge applied before the step of tick k.
func serverState(t testing.TB, start, T, k uint32) *StateMsg {
	w := mustArena()
	w.SkipTo(start)
	for tk := start; tk != T; tk++ {
		if tk == k {
			if err := w.ApplyImpulse(0, physics.Vec3{X: 2, Y: 1}); err != nil {
				t.Fatal(err)
			}
		}
		if err := stepInput(w, script(tk)); err != nil {
			t.Fatal(err)
		}
	}
	m := &StateMsg{Tick: T, Hash: w.Hash()}
	w.Save(&m.State)
	return m
}

func newClient(start uint32) *Client {
	w := mustArena()
	w.SkipTo(start)
	return NewClient(DefaultClientConfig(), w, arenaScene)
}

func TestReplayUsesTheBufferedInputOfEachTick(t *testing.T) {
	const start, T, now = 1000, 1010, 1040
	c := newClient(start)
	for tk := uint32(start); tk != now; tk++ {
		if _, err := c.Step(script(tk), nil); err != nil {
			t.Fatal(err)
		}
	}
	m := serverState(t, start, T, T-1)
	if err := c.OnState(m); err != nil {
		t.Fatal(err)
	}
	if c.Stats.Corrections != 1 || c.Stats.ReplayedTicks != now-T {
		t.Fatalf("corrections %d, replayed %d; want 1 and %d", c.Stats.Corrections, c.Stats.ReplayedTicks, now-T)
	}
	// Independently: the server's state, then the script's input for each
	// tick from T to now.
	right := mustArena()
	if err := right.Restore(&m.State); err != nil {
		t.Fatal(err)
	}
	wrong := mustArena()
	if err := wrong.Restore(&m.State); err != nil {
		t.Fatal(err)
	}
	for tk := uint32(T); tk != now; tk++ {
		_ = stepInput(right, script(tk))
		_ = stepInput(wrong, script(now-1)) // the transcribed listing's bug: the current input every tick
	}
	if c.World().Hash() != right.Hash() {
		t.Fatal("replay did not use the buffered input of each tick")
	}
	if right.Hash() == wrong.Hash() {
		t.Fatal("the test cannot tell the two replays apart")
	}
	// The ring was rewritten: the state stored for T+5 is the replayed one.
	s, ok := c.states.get(T + 5)
	if !ok {
		t.Fatal("state T+5 missing")
	}
	check := mustArena()
	_ = check.Restore(&m.State)
	for tk := uint32(T); tk != T+5; tk++ {
		_ = stepInput(check, script(tk))
	}
	if s.Hash() != check.Hash() {
		t.Fatal("state ring not rewritten by the replay")
	}
}

func TestMatchingStateNeedsNoCorrection(t *testing.T) {
	c := newClient(0)
	for tk := uint32(0); tk != 40; tk++ {
		if _, err := c.Step(script(tk), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.OnState(serverState(t, 0, 20, 1<<31)); err != nil {
		t.Fatal(err)
	}
	if c.Stats.Corrections+c.Stats.Resyncs != 0 || c.Stats.StatesReceived != 1 {
		t.Fatalf("stats %+v", c.Stats)
	}
	if c.InFlight() != 20 {
		t.Fatalf("in flight %d, want 20", c.InFlight())
	}
}

func TestStaleAndDuplicateStatesAreIgnored(t *testing.T) {
	c := newClient(0)
	for tk := uint32(0); tk != 60; tk++ {
		if _, err := c.Step(script(tk), nil); err != nil {
			t.Fatal(err)
		}
	}
	newer, older := serverState(t, 0, 30, 5), serverState(t, 0, 20, 5)
	for _, m := range []*StateMsg{newer, newer, older} {
		if err := c.OnState(m); err != nil {
			t.Fatal(err)
		}
	}
	if c.Stats.StatesReceived != 1 || c.Stats.StaleStates != 2 || c.Stats.Corrections != 1 {
		t.Fatalf("received %d stale %d corrections %d; want 1, 2, 1", c.Stats.StatesReceived, c.Stats.StaleStates, c.Stats.Corrections)
	}
	future := serverState(t, 0, 61, 1<<31)
	if err := c.OnState(future); !errors.Is(err, ErrRejected) {
		t.Fatalf("a state from the future gave %v, want a rejection", err)
	}
	if c.Stats.Rejected[RejectTick] != 1 || c.Stats.StatesReceived != 1 {
		t.Fatal("a state from the future was not refused")
	}
}

func TestLongOutageHoldsInsteadOfOverwriting(t *testing.T) {
	c := newClient(0)
	// 2000 ticks without a server state: the ring would wrap after 1024.
	for tk := uint32(0); tk != 2000; tk++ {
		if _, err := c.Step(script(tk), nil); err != nil {
			t.Fatal(err)
		}
	}
	if c.Tick() != RingSize-1 || c.Stats.HeldTicks != 2000-(RingSize-1) {
		t.Fatalf("tick %d held %d; want %d and %d", c.Tick(), c.Stats.HeldTicks, RingSize-1, 2000-(RingSize-1))
	}
	// The oldest history is still there: a state for tick 1 with a nudge
	// before tick 0 rewinds all the way.
	if err := c.OnState(serverState(t, 0, 1, 0)); err != nil {
		t.Fatal(err)
	}
	if c.Stats.Corrections != 1 || c.Stats.MaxReplay != RingSize-2 {
		t.Fatalf("corrections %d, max replay %d", c.Stats.Corrections, c.Stats.MaxReplay)
	}
	// Prediction resumes.
	if _, err := c.Step(script(c.Tick()), nil); err != nil {
		t.Fatal(err)
	}
	if c.Tick() != RingSize {
		t.Fatalf("tick %d after resuming", c.Tick())
	}
}

func TestRedundantInputsSinceNewestState(t *testing.T) {
	c := newClient(0)
	var b []byte
	var err error
	for tk := uint32(0); tk != 50; tk++ {
		if b, err = c.Step(script(tk), b[:0]); err != nil {
			t.Fatal(err)
		}
	}
	var m InputMsg
	if err := DecodeInput(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.First != 0 || len(m.Inputs) != 50 {
		t.Fatalf("message covers %d+%d, want 0+50", m.First, len(m.Inputs))
	}
	_ = c.OnState(serverState(t, 0, 30, 1<<31))
	if b, err = c.Step(script(50), b[:0]); err != nil {
		t.Fatal(err)
	}
	if err := DecodeInput(b, &m); err != nil || m.First != 30 || len(m.Inputs) != 21 {
		t.Fatalf("after state 30: message covers %d+%d (%v), want 30+21", m.First, len(m.Inputs), err)
	}
	c.Config.Redundancy = false
	if b, err = c.Step(script(51), b[:0]); err != nil {
		t.Fatal(err)
	}
	if err := DecodeInput(b, &m); err != nil || m.First != 51 || len(m.Inputs) != 1 {
		t.Fatalf("without redundancy: %d+%d, want 51+1", m.First, len(m.Inputs))
	}
}

func TestServerLabelsAfterSeveralTicks(t *testing.T) {
	// One message makes the server simulate five ticks: the snapshot is
	// labelled with the tick after the last input applied (state n + input
	// n = state n+1), the original demo's issue #3.
	w := mustArena()
	s := NewServer(w, arenaScene, 0)
	in := []game.Input{script(0), script(1), script(2), script(3), script(4)}
	msg, _ := AppendInput(nil, 0, in)
	if err := s.Receive(time.Second, msg); err != nil {
		t.Fatal(err)
	}
	var m StateMsg
	if err := DecodeState(s.Snapshot(nil, false), &m); err != nil {
		t.Fatal(err)
	}
	want := serverState(t, 0, 5, 1<<31)
	if m.Tick != 5 || m.Hash != want.Hash {
		t.Fatalf("snapshot tick %d hash %016x, want tick 5 hash %016x", m.Tick, m.Hash, want.Hash)
	}
	// Redundant copies are counted, not applied again.
	if err := s.Receive(time.Second, msg); err != nil {
		t.Fatal(err)
	}
	if s.Stats.OldInputs != 5 || s.Tick() != 5 {
		t.Fatalf("old inputs %d, tick %d", s.Stats.OldInputs, s.Tick())
	}
	if b := s.Snapshot(nil, true); len(b) != 0 {
		t.Fatal("a snapshot with nothing new was sent")
	}
}

func TestServerRefusesTicksFromTheFuture(t *testing.T) {
	s := NewServer(mustArena(), arenaScene, 0)
	// At 1 s the client can have reached tick 64, plus the margin.
	far, _ := AppendInput(nil, 64+s.AheadMargin+1, []game.Input{1})
	if err := s.Receive(time.Second, far); err != nil {
		t.Fatal(err)
	}
	if s.Stats.RefusedInputs != 1 || s.Tick() != 0 {
		t.Fatalf("refused %d, tick %d", s.Stats.RefusedInputs, s.Tick())
	}
	// A client back from a 10 s outage with 640 legitimate inputs is taken.
	long := make([]game.Input, 640)
	for i := range long {
		long[i] = script(uint32(i))
	}
	msg, _ := AppendInput(nil, 0, long)
	if err := s.Receive(10*time.Second, msg); err != nil {
		t.Fatal(err)
	}
	if s.Tick() != 640 || s.Stats.RefusedInputs != 1 {
		t.Fatalf("tick %d refused %d after the outage", s.Tick(), s.Stats.RefusedInputs)
	}
}

func TestServerMissingInputPolicies(t *testing.T) {
	for _, policy := range []Missing{SkipMissing, RepeatLast} {
		s := NewServer(mustArena(), arenaScene, 0)
		s.Missing = policy
		a, _ := AppendInput(nil, 0, []game.Input{1, 1})
		b, _ := AppendInput(nil, 5, []game.Input{2})
		late, _ := AppendInput(nil, 3, []game.Input{4})
		for _, m := range [][]byte{a, b, late} {
			if err := s.Receive(time.Second, m); err != nil {
				t.Fatal(err)
			}
		}
		if s.Tick() != 6 {
			t.Fatalf("%v: tick %d, want 6", policy, s.Tick())
		}
		switch policy {
		case SkipMissing:
			if s.Stats.SkippedTicks != 3 || s.Stats.InputsApplied != 3 || s.Stats.OldInputs != 1 {
				t.Fatalf("skip: %+v", s.Stats)
			}
			// Ticks 2-4 were not simulated: the world matches two steps
			// with input 1 and one with input 2.
			w := mustArena()
			_ = stepInput(w, 1)
			_ = stepInput(w, 1)
			w.SkipTo(5)
			_ = stepInput(w, 2)
			if w.Hash() != s.World().Hash() {
				t.Fatal("skip policy simulated something it should not have")
			}
		case RepeatLast:
			if s.Stats.RepeatedTicks != 3 || s.Stats.SkippedTicks != 0 {
				t.Fatalf("repeat: %+v", s.Stats)
			}
		}
	}
}
