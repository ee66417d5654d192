package server

import (
	"errors"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// TestStaleInputsDoNotHoldASlot: a client that goes on sending an Input a
// second, but only for a tick long simulated and with the same ack, makes
// no progress: it leaves after Timeout, while a playing client stays.
func TestStaleInputsDoNotHoldASlot(t *testing.T) {
	s, sc := newServer(t, 2, protocol.ModeState)
	hello(t, s, sc, 0, 1, 1) // the squatter
	hello(t, s, sc, 0, 2, 2) // a player
	d := tick.Duration(s.world.Config().Dt)
	var now time.Duration
	for range 10 {
		now += d
		input(t, s, now, 1, 0, s.Tick(), game.Left)
		input(t, s, now, 2, 1, s.Tick(), game.Left)
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
	}
	stale := s.Tick() - 5
	for now < 10*time.Second {
		now += d
		if now%time.Second < d {
			b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: stale, Inputs: []game.Input{game.Left}})
			if err := s.Receive(now, 1, b); err != nil && !errors.Is(err, protocol.ErrRejected) {
				t.Fatal(err) // rejected once it has left
			}
		}
		input(t, s, now, 2, 1, s.Tick(), game.Right)
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
	}
	if _, held := s.PlayerStats(0); held || s.Stats.TimedOut != 1 {
		t.Errorf("after 10 s of stale inputs the slot is held: %v, %d timed out", held, s.Stats.TimedOut)
	}
	if _, held := s.PlayerStats(1); !held {
		t.Error("the playing client left")
	}
}

// TestRateRefusedBeforeDecoding: once a client is over its rate, its Input
// messages are refused from their header, as too fast, without being
// decoded (a message whose runs do not decode counts as too fast, not as
// malformed) and without an allocation.
func TestRateRefusedBeforeDecoding(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	hello(t, s, sc, 0, 1, 1)
	ok, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Left}})
	now := time.Millisecond
	// Spend the burst.
	for range int(s.MaxInputRate*InputBurstTicks) + 10 {
		if err := s.Receive(now, 1, ok); err != nil && !errors.Is(err, protocol.ErrRejected) {
			t.Fatal(err)
		}
	}
	bad := append([]byte{}, ok...)
	bad = append(bad, 0xff, 0xff, 0xff) // runs that do not decode
	before := s.Stats.Rejected
	err := s.Receive(now, 1, bad)
	if !errors.Is(err, protocol.ErrRejected) {
		t.Fatalf("over the rate: %v", err)
	}
	if s.Stats.Rejected[protocol.RejectMalformed] != before[protocol.RejectMalformed] {
		t.Errorf("the message over the rate was decoded: %v", &s.Stats.Rejected)
	}
	if a := testing.AllocsPerRun(100, func() {
		if err := s.Receive(now, 1, ok); err != nil && !errors.Is(err, protocol.ErrRejected) {
			t.Error(err)
		}
	}); a != 0 {
		t.Errorf("%v allocations to refuse a message over the rate", a)
	}
	st, _ := s.PlayerStats(0)
	if st.TooFast == 0 || s.Stats.TooFast != st.TooFast {
		t.Errorf("too fast: player %d, server %d", st.TooFast, s.Stats.TooFast)
	}
}

// TestOneRefusalPerTurn: a connection that floods Hellos for another scene
// gets one refusal a turn, not one a Hello.
func TestOneRefusalPerTurn(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	other := sc.ID
	other.Hash++
	b := wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(s.mode), Scene: other})
	for range 100 {
		if err := s.Receive(0, 5, b); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	s.Send(0, false, func(conn uint32, w []byte) {
		n++
		if len(w) > len(b) {
			t.Errorf("a refusal of %d bytes to a Hello of %d", len(w), len(b))
		}
	})
	if n != 1 || s.Stats.Refusals != 1 {
		t.Errorf("%d refusals sent (counted %d) for 100 Hellos in a turn", n, s.Stats.Refusals)
	}
}

// TestHelloAgainKeepsAJoiningClient: a client whose Welcome is lost says
// Hello again every quarter second; it has not played yet, and is alive:
// after 10 s it still holds its slot, while one that said Hello once and
// then nothing times out. Hellos alone hold a slot for joinGrace at most:
// by 36 s it has timed out too.
func TestHelloAgainKeepsAJoiningClient(t *testing.T) {
	s, sc := newServer(t, 2, protocol.ModeState)
	hello(t, s, sc, 0, 1, 1) // says Hello again
	hello(t, s, sc, 0, 2, 2) // says nothing more
	d := tick.Duration(s.world.Config().Dt)
	var now time.Duration
	// helloUntil runs the server to end, client 1 saying Hello every
	// quarter second.
	helloUntil := func(end time.Duration) {
		for now < end {
			now += d
			if now%(time.Second/4) < d {
				b := wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(protocol.ModeState), Scene: sc.ID})
				if err := s.Receive(now, 1, b); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Advance(now); err != nil {
				t.Fatal(err)
			}
		}
	}
	helloUntil(10 * time.Second)
	if _, held := s.PlayerStats(0); !held {
		t.Error("the client saying Hello again lost its slot")
	}
	if _, held := s.PlayerStats(1); held || s.Stats.TimedOut != 1 {
		t.Errorf("the silent client holds its slot: %v, %d timed out", held, s.Stats.TimedOut)
	}
	helloUntil(joinGrace + s.Timeout + time.Second)
	if s.Stats.TimedOut != 2 {
		t.Errorf("Hellos alone held a slot for %v: %d timed out", now, s.Stats.TimedOut) // (the host then closes its connection)
	}
}
