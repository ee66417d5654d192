package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// TestRejoinedSlotStartsEmpty: inputs a client sent ahead for its slot do
// not move the cube of the next client in that slot.
func TestRejoinedSlotStartsEmpty(t *testing.T) {
	s, sc := newServer(t, 2, protocol.ModeState)
	hello(t, s, sc, 0, 1, 11)
	hello(t, s, sc, 0, 2, 22)
	now := time.Duration(0)
	// Client 2 sends a second of Forward ahead, then falls silent.
	for i := uint32(0); i < 8; i++ {
		input(t, s, now, 2, 1, s.Tick()+1+i*8, game.Forward, game.Forward, game.Forward, game.Forward, game.Forward, game.Forward, game.Forward, game.Forward)
	}
	for now < s.Timeout+time.Second {
		inputTick(t, s, &now, 1, 0, 0)
	}
	if s.Peers() != 1 {
		t.Fatalf("%d peers after the timeout", s.Peers())
	}
	// A new client takes slot 1; its old inputs' ticks are long past, so
	// put the leftovers where the new client's first ticks are.
	pl := &s.players[1]
	for i := uint32(1); i <= 64; i++ {
		*pl.pending.Put(s.Tick() + i) = game.Forward
	}
	b := wire.AppendHello(nil, &wire.Hello{Nonce: 33, Mode: uint8(s.mode), Scene: sc.ID})
	if err := s.Receive(now, 3, b); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 32; i++ {
		inputTick(t, s, &now, 1, 0, 0)
		s.Send(now, false, func(uint32, []byte) {})
	}
	st, _ := s.PlayerStats(1)
	if st.Applied != 0 || pl.haveNewest {
		t.Fatalf("the new client's cube took %d inputs it never sent (newest kept: %v)", st.Applied, pl.haveNewest)
	}
}

// TestOldInputKeepsNewerOne: a copy of an input for a tick simulated long
// ago does not take the ring slot of a buffered input a ring later.
func TestOldInputKeepsNewerOne(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	hello(t, s, sc, 0, 1, 11)
	now := time.Duration(0)
	for s.Tick() < tick.RingSize+10 {
		inputTick(t, s, &now, 1, 0, 0)
	}
	future := s.Tick() + 2
	input(t, s, now, 1, 0, future, game.Jump)
	input(t, s, now, 1, 0, future-tick.RingSize, game.Left) // a stale duplicate
	if v, ok := s.players[0].pending.Get(future); !ok || *v != game.Jump {
		t.Fatalf("the buffered input for tick %d is gone: %v %v", future, v, ok)
	}
}

// TestRepeatedHelloEchoesItself: when the Welcome was lost, the one said
// again echoes the newest Hello's clock, so the client's round trip is
// measured from the Hello it answers.
func TestRepeatedHelloEchoesItself(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	for _, echo := range []uint32{100, 350} {
		b := wire.AppendHello(nil, &wire.Hello{Nonce: 7, Echo: echo, Mode: uint8(s.mode), Scene: sc.ID})
		if err := s.Receive(0, 1, b); err != nil {
			t.Fatal(err)
		}
		if w := welcome(t, s, 0, 1); w.Echo != echo {
			t.Fatalf("Welcome echoes %d, want %d", w.Echo, echo)
		}
	}
}

// TestOneSnapshotPerTickWithoutBudget: without a bandwidth budget the
// server still sends one snapshot a tick, not one per Send of the same tick.
func TestOneSnapshotPerTickWithoutBudget(t *testing.T) {
	for _, budget := range []float64{0, 32000} {
		s, sc := newServer(t, 1, protocol.ModeState)
		s.BytesPerSecond = budget
		hello(t, s, sc, 0, 1, 11)
		input(t, s, 0, 1, 0, 0, 0)
		n := 0
		for i := 0; i < 3; i++ {
			s.Send(time.Duration(i)*time.Millisecond, true, func(c uint32, b []byte) {
				if k, _ := wire.Kind(b); k == wire.KindSnapshot {
					n++
				}
			})
		}
		if n != 1 {
			t.Fatalf("budget %v: %d snapshots of one tick, want 1", budget, n)
		}
	}
}

// TestFarBehindClientGetsTransfer: an input-sync client whose newest
// acknowledged tick has left the server's history gets the whole state,
// although every turn brings an Input that does not ask for it.
func TestFarBehindClientGetsTransfer(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeInputs)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	for k := 0; k < tick.RingSize+16; k++ {
		now += d
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Forward},
			Flags: wire.AckValid, Ack: 0, Base: 0}) // stuck at tick 0
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(uint32, []byte) {})
	}
	if s.Stats.Transfers == 0 || !s.peerOf(1).xfer.active {
		t.Fatalf("a client %d ticks behind: %d transfers started", s.Tick(), s.Stats.Transfers)
	}
}

// TestStallDropsTicks: after a stall of an hour the clocked server
// simulates at most tick.MaxAdvance ticks and moves its clock on.
func TestStallDropsTicks(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 11)
	if err := s.Advance(time.Hour); err != nil {
		t.Fatal(err)
	}
	if s.Tick() != tick.MaxAdvance || s.Stats.DroppedTicks == 0 {
		t.Fatalf("after a stall: tick %d, %d dropped", s.Tick(), s.Stats.DroppedTicks)
	}
	if got := uint64(s.Tick()) + s.Stats.DroppedTicks; got != uint64(time.Hour/d)+1 {
		t.Fatalf("simulated plus dropped: %d, want the hour's %d ticks", got, uint64(time.Hour/d)+1)
	}
	before := s.Tick()
	if err := s.Advance(time.Hour + d); err != nil {
		t.Fatal(err)
	}
	if s.Tick() != before+1 {
		t.Fatalf("one tick later: %d ticks simulated, want 1", s.Tick()-before)
	}
}
