package server

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// script is a varied input sequence: applying the wrong input for any
// tick shows in the hash.
func script(t uint32) game.Input {
	return game.Input((t*7 + t/5) % 16)
}

// inputDriven returns the original demo's arena server (it steps when the
// one client's inputs arrive, so that a test decides when it steps), with
// a client joined on connection 1.
func inputDriven(t testing.TB, mode protocol.Mode) *Server {
	t.Helper()
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Clocked, cfg.AheadMargin, cfg.BytesPerSecond, cfg.Timeout = false, 64, 0, 0
	s := New(w, sc, mode, cfg)
	helloMode(t, s, sc, mode, 0, 1, 77)
	return s
}

// appendInput returns an Input message of player 0's inputs from first.
func appendInput(t testing.TB, first uint32, ins ...game.Input) []byte {
	t.Helper()
	b, sent := wire.AppendInput(nil, &wire.Input{First: first, Inputs: ins})
	if sent != first {
		t.Fatalf("the message starts at tick %d, not %d", sent, first)
	}
	return b
}

// TestServerLabelsAfterSeveralTicks: one message makes the server simulate
// five ticks; its snapshot is labelled with the tick after the last one
// simulated ("state n + input n = state n+1").
func TestServerLabelsAfterSeveralTicks(t *testing.T) {
	s := inputDriven(t, protocol.ModeState)
	w, sc := game.MustBuild("arena")
	var ins []game.Input
	for tk := uint32(0); tk < 5; tk++ {
		ins = append(ins, script(tk))
		if err := sc.Step1(w, script(tk)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Receive(0, 1, appendInput(t, 0, ins...)); err != nil {
		t.Fatal(err)
	}
	var down [][]byte
	s.Send(0, true, func(_ uint32, b []byte) { down = append(down, append([]byte(nil), b...)) })
	if len(down) == 0 {
		t.Fatal("no snapshot sent")
	}
	label, _, _, err := wire.SnapshotBase(down[0])
	if err != nil || label != 5 || s.World().Hash() != w.Hash() {
		t.Fatalf("snapshot labelled %d (%v), server hash matches %v", label, err, s.World().Hash() == w.Hash())
	}
}

// TestServerRefusesTicksFromTheFuture: inputs beyond what the client can
// have reached are refused and counted, and another player's inputs are
// rejected.
func TestServerRefusesTicksFromTheFuture(t *testing.T) {
	s := inputDriven(t, protocol.ModeState)
	if err := s.Receive(0, 1, appendInput(t, s.AheadMargin+10, 1)); err != nil {
		t.Fatal(err)
	}
	if s.Stats.RefusedInputs != 1 || s.Tick() != 0 {
		t.Fatalf("refused %d, tick %d", s.Stats.RefusedInputs, s.Tick())
	}
	other, _ := wire.AppendInput(nil, &wire.Input{Player: 1, First: 0, Inputs: []game.Input{1}})
	if err := s.Receive(0, 1, other); !errors.Is(err, protocol.ErrRejected) || s.Tick() != 0 {
		t.Fatalf("input for player 1: %v", err)
	}
}

// TestServerMissingInputPolicies: with a gap in the inputs, SkipMissing
// skips the missing ticks and RepeatLast repeats the last input; a late
// input for a tick already simulated is counted old.
func TestServerMissingInputPolicies(t *testing.T) {
	for _, policy := range []Missing{SkipMissing, RepeatLast} {
		s := inputDriven(t, protocol.ModeState)
		s.Missing = policy
		for _, m := range [][]byte{appendInput(t, 0, 1, 1), appendInput(t, 5, 2), appendInput(t, 3, 4)} {
			if err := s.Receive(0, 1, m); err != nil {
				t.Fatal(err)
			}
		}
		w, sc := game.MustBuild("arena")
		step := func(in game.Input) {
			t.Helper()
			if err := sc.Step1(w, in); err != nil {
				t.Fatal(err)
			}
		}
		step(1)
		step(1)
		switch policy {
		case SkipMissing:
			w.SkipTo(5)
			if s.Stats.SkippedTicks != 3 {
				t.Fatalf("skip: %d skipped", s.Stats.SkippedTicks)
			}
		case RepeatLast:
			for k := 0; k < 3; k++ {
				step(1)
			}
			if s.Stats.RepeatedTicks != 3 {
				t.Fatalf("repeat: %d repeated", s.Stats.RepeatedTicks)
			}
		}
		step(2)
		if s.World().Hash() != w.Hash() || s.Stats.OldInputs != 1 {
			t.Fatalf("%v: server state differs, or the late input was not counted old (%d)", policy, s.Stats.OldInputs)
		}
	}
}

// FuzzServerReceive feeds arbitrary bytes to a server with a client: it
// never panics, refuses what does not decode with protocol.ErrRejected, never
// goes beyond what the client can have reached, and keeps a world it can
// restore and snapshot.
func FuzzServerReceive(f *testing.F) {
	var seeds [][]byte
	for i := uint32(0); i < 30; i += 3 {
		b, _ := wire.AppendInput(nil, &wire.Input{Flags: wire.AckValid, Ack: i, Base: i, First: i, Inputs: []game.Input{script(i), script(i + 1), script(i + 2)}})
		seeds = append(seeds, b)
	}
	seeds = append(seeds,
		wire.AppendHello(nil, &wire.Hello{Nonce: 77, Mode: uint8(protocol.ModeState)}),
		wire.AppendHave(nil, &wire.Have{Tick: 30, Count: 9, Got: []byte{0xff, 1}}))
	for _, mode := range []protocol.Mode{protocol.ModeState, protocol.ModeInputs} {
		for _, b := range seeds {
			f.Add(b, uint8(mode))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, mode uint8) {
		s := inputDriven(t, protocol.Mode(mode%2))
		err := s.Receive(0, 1, b)
		if err != nil && !errors.Is(err, protocol.ErrRejected) {
			t.Fatalf("peer bytes gave a non-rejection error: %v", err)
		}
		if tick.After(s.Tick(), s.Limit(0, 0)+1) {
			t.Fatalf("server reached tick %d, beyond its limit %d", s.Tick(), s.Limit(0, 0))
		}
		if err := s.World().Check(s.World().State()); err != nil {
			t.Fatalf("the server's world is no longer valid: %v", err)
		}
		s.Send(0, true, func(_ uint32, m []byte) {
			if _, err := wire.Kind(m); err != nil || len(m) > wire.MaxMessage {
				t.Fatalf("the server sent a bad message: %v", err)
			}
		})
	})
}
