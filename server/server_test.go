package server

import (
	"errors"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// newServer returns a clocked arena server for players players.
func newServer(t testing.TB, players int, mode protocol.Mode) (*Server, *game.Scene) {
	t.Helper()
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: players})
	if err != nil {
		t.Fatal(err)
	}
	return New(w, sc, mode, DefaultConfig()), sc
}

// hello sends a Hello in the server's mode on conn and returns the Welcome
// the next Send says.
func hello(t testing.TB, s *Server, sc *game.Scene, now time.Duration, conn uint32, nonce uint64) wire.Welcome {
	t.Helper()
	return helloMode(t, s, sc, s.mode, now, conn, nonce)
}

// helloMode sends a Hello in mode on conn.
func helloMode(t testing.TB, s *Server, sc *game.Scene, mode protocol.Mode, now time.Duration, conn uint32, nonce uint64) wire.Welcome {
	t.Helper()
	b := wire.AppendHello(nil, &wire.Hello{Nonce: nonce, Mode: uint8(mode), Scene: sc.ID})
	if err := s.Receive(now, conn, b); err != nil {
		t.Fatal(err)
	}
	return welcome(t, s, now, conn)
}

// welcome returns the Welcome the next Send says to conn.
func welcome(t testing.TB, s *Server, now time.Duration, conn uint32) wire.Welcome {
	t.Helper()
	var w wire.Welcome
	found := false
	s.Send(now, false, func(c uint32, b []byte) {
		if k, _ := wire.Kind(b); c == conn && k == wire.KindWelcome {
			if err := wire.DecodeWelcome(b, &w); err != nil {
				t.Fatal(err)
			}
			found = true
		}
	})
	if !found {
		t.Fatalf("no Welcome for connection %d", conn)
	}
	return w
}

// input sends player p's input for tick t on conn.
func input(t testing.TB, s *Server, now time.Duration, conn uint32, p int, first uint32, ins ...game.Input) {
	t.Helper()
	b, _ := wire.AppendInput(nil, &wire.Input{Player: uint8(p), First: first, Inputs: ins})
	if err := s.Receive(now, conn, b); err != nil {
		t.Fatal(err)
	}
}

// inputTick sends client conn's input in for the server's next tick, one
// tick length after *now, and lets the clocked server simulate it.
func inputTick(t testing.TB, s *Server, now *time.Duration, conn uint32, p int, in game.Input) {
	t.Helper()
	*now += tick.Duration(s.world.Config().Dt)
	input(t, s, *now, conn, p, s.Tick(), in)
	if err := s.Advance(*now); err != nil {
		t.Fatal(err)
	}
}

// TestSilentClientTimesOut: a client not heard from for Timeout leaves: its
// connection is handed back to be closed, its cube leaves the world at the
// next tick and its slot is free for the next Hello.
func TestSilentClientTimesOut(t *testing.T) {
	s, sc := newServer(t, 2, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 11)
	w := hello(t, s, sc, 0, 2, 22)
	if w.Result != wire.Accepted || w.Player != 1 {
		t.Fatalf("second client: %+v", w)
	}
	now := time.Duration(0)
	for now < s.Timeout+time.Second {
		inputTick(t, s, &now, 1, 0, game.Forward) // client 1 keeps talking
	}
	left := s.TakeLeft(nil)
	if len(left) != 1 || left[0] != 2 || s.Stats.TimedOut != 1 || s.Peers() != 1 {
		t.Fatalf("left %v, timed out %d, %d peers", left, s.Stats.TimedOut, s.Peers())
	}
	if s.world.Enabled(sc.Players[1]) || !s.world.Enabled(sc.Players[0]) {
		t.Fatal("the silent client's cube is still in the world, or the other's left")
	}
	if _, ok := s.PlayerStats(1); ok {
		t.Fatal("slot 1 still has a client")
	}
	// The next client takes the slot and its cube comes back at the next
	// tick; the Welcome waits for it.
	b := wire.AppendHello(nil, &wire.Hello{Nonce: 33, Mode: uint8(s.mode), Scene: sc.ID})
	if err := s.Receive(now, 3, b); err != nil {
		t.Fatal(err)
	}
	s.Send(now, false, func(c uint32, b []byte) {
		if c == 3 {
			t.Fatal("a Welcome before the cube is back")
		}
	})
	now += d
	if err := s.Advance(now); err != nil {
		t.Fatal(err)
	}
	w = welcome(t, s, now, 3)
	if w.Player != 1 || !s.world.Enabled(sc.Players[1]) || s.Stats.Joins != 1 || !w.Transfer {
		t.Fatalf("a new client on the freed slot: %+v, cube enabled %v, joins %d", w, s.world.Enabled(sc.Players[1]), s.Stats.Joins)
	}
}

// TestFullServerRefuses: a Hello beyond the scene's players is answered
// ServerFull; one for another scene OtherScene, in another mode OtherMode.
func TestFullServerRefuses(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	hello(t, s, sc, 0, 1, 1)
	if w := hello(t, s, sc, 0, 2, 2); w.Result != wire.ServerFull {
		t.Fatalf("second client on a one-player server: %+v", w)
	}
	other := *sc
	other.ID.Hash++
	if w := hello(t, s, &other, 0, 3, 3); w.Result != wire.OtherScene {
		t.Fatalf("another scene: %+v", w)
	}
	if w := helloMode(t, s, sc, protocol.ModeInputs, 0, 4, 4); w.Result != wire.OtherMode {
		t.Fatalf("another mode: %+v", w)
	}
	if s.Peers() != 1 {
		t.Fatalf("%d peers after refusals", s.Peers())
	}
}

// TestInputFlood: a client that sends far more Input messages than ticks
// has the excess dropped and counted, beyond a burst.
func TestInputFlood(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	hello(t, s, sc, 0, 1, 1)
	d := tick.Duration(s.world.Config().Dt)
	now := time.Duration(0)
	for k := 0; k < 200; k++ {
		now += d
		for j := 0; j < 40; j++ { // 40 messages a tick, 10 times the limit
			b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Left}})
			if err := s.Receive(now, 1, b); err != nil && !errors.Is(err, protocol.ErrRejected) {
				t.Fatal(err)
			}
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := s.PlayerStats(0)
	taken := 200*40 - int(st.TooFast)
	// A burst of InputBurstTicks ticks at the rate, then the rate.
	if most := int(s.MaxInputRate*InputBurstTicks) + int(s.MaxInputRate*200) + 1; st.TooFast == 0 || taken > most {
		t.Fatalf("%d of %d messages taken, want at most %d", taken, 200*40, most)
	}
	if s.Stats.Rejected.Total() != st.TooFast || s.Stats.Rejected[protocol.RejectRate] != st.TooFast {
		t.Fatalf("%d rejected (%s), %d too fast: want each counted as rate", s.Stats.Rejected.Total(), &s.Stats.Rejected, st.TooFast)
	}
}

// FuzzReceive: whatever a connection sends, joined or not, the server
// neither panics nor fails; a message it cannot take is rejected with an
// error that says so, and the world stays valid.
func FuzzReceive(f *testing.F) {
	_, sc0 := game.MustBuild("arena")
	f.Add(wire.AppendHello(nil, &wire.Hello{Nonce: 1, Mode: uint8(protocol.ModeState), Scene: sc0.ID}), false)
	in, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: 0, Inputs: []game.Input{game.Forward, game.Jump}})
	f.Add(in, true)
	in, _ = wire.AppendInput(nil, &wire.Input{Player: 0, Flags: wire.AckValid, Ack: 0, Base: 0, Held: 1<<63 | 1, First: 0, Inputs: []game.Input{0}})
	f.Add(in, true) // views never sent named
	f.Add(wire.AppendHave(nil, &wire.Have{Tick: 3, Count: 1, Got: []byte{1}}), true)
	f.Add(wire.AppendRepairWant(nil, &wire.RepairWant{Tick: 0, Count: 1, Mask: []byte{1}}), true)
	f.Add(wire.AppendRepairWant(nil, &wire.RepairWant{Tick: 0, All: true}), true)
	f.Add([]byte{}, true)
	f.Add([]byte{0xff, 0, 0}, false)
	f.Fuzz(func(t *testing.T, b []byte, joined bool) {
		s, sc := newServer(t, 2, protocol.ModeState)
		if joined {
			hello(t, s, sc, 0, 1, 7)
		}
		err := s.Receive(time.Millisecond, 1, b)
		if err != nil && !errors.Is(err, protocol.ErrRejected) {
			t.Fatalf("not a rejection: %v", err)
		}
		if err := s.Advance(20 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		s.Send(20*time.Millisecond, true, func(uint32, []byte) {})
		if err := s.world.Check(s.world.State()); err != nil {
			t.Fatal(err)
		}
	})
}

// snapshotTo returns the snapshot the next Send says to conn, decoded
// against the peer's views.
func snapshotTo(t testing.TB, s *Server, now time.Duration, conn uint32) *wire.Snapshot {
	t.Helper()
	var m *wire.Snapshot
	s.Send(now, true, func(c uint32, b []byte) {
		if k, _ := wire.Kind(b); c != conn || k != wire.KindSnapshot {
			return
		}
		_, base, _, err := wire.SnapshotBase(b)
		if err != nil {
			t.Fatal(err)
		}
		v := s.peerOf(conn).st.views.Get(base)
		if v == nil {
			t.Fatalf("snapshot against view %d, which the server does not hold", base)
		}
		m = new(wire.Snapshot)
		if err := wire.DecodeSnapshot(b, m, v.Fill(nil)); err != nil {
			t.Fatal(err)
		}
	})
	if m == nil {
		t.Fatalf("no snapshot for connection %d", conn)
	}
	return m
}

// TestRemoteInputChangeSendsContacts: a client in step predicts another
// player's cube with the last input it knew, so when that player's input
// changes the client's contact impulses may differ from the server's: its
// snapshots then carry the contacts of the islands they touch, which they
// leave out while nothing changes.
func TestRemoteInputChangeSendsContacts(t *testing.T) {
	s, sc := newServer(t, 2, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 1)
	hello(t, s, sc, 0, 2, 2)
	now := time.Duration(0)
	step := func(in0, in1 game.Input) {
		now += d
		// Both clients say they hold the server's state of the tick
		// before, in step.
		for p, in := range []game.Input{in0, in1} {
			conn := uint32(p + 1)
			b, _ := wire.AppendInput(nil, &wire.Input{Player: uint8(p), First: s.Tick(), Inputs: []game.Input{in},
				Flags: wire.AckValid | wire.AckInSync, Ack: s.Tick() - 1, Base: s.Tick() - 1})
			if err := s.Receive(now, conn, b); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 200; k++ {
		step(game.Forward, game.Back) // both push; the cubes rest on the ground
	}
	if m := snapshotTo(t, s, now, 1); m.Flags&wire.HasContacts != 0 {
		t.Fatalf("no input changed for 200 ticks, and the snapshot carries %d contacts", len(m.Contacts))
	}
	step(game.Forward, game.Left) // player 1 turns
	m := snapshotTo(t, s, now, 1)
	if m.Flags&wire.HasContacts == 0 || len(m.Contacts) == 0 {
		t.Fatalf("player 1's input changed and player 0's snapshot carries no contacts (flags %b)", m.Flags)
	}
	for _, c := range m.Contacts {
		if c.A != int32(sc.Players[0]) && c.A != int32(sc.Players[1]) && c.B != int32(sc.Players[0]) && c.B != int32(sc.Players[1]) {
			t.Errorf("contact %d-%d touches neither cube", c.A, c.B)
		}
	}
}

// TestRepairTransferLastsUntilTaken: a transfer a client asked for stays
// under way while the client still asks, although its acknowledgements
// of newer snapshots pass the transfer's tick (a large transfer takes
// longer than a round trip); it ends when the client stops asking, and a
// client that still asks long after it began gets a newer one.
func TestRepairTransferLastsUntilTaken(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	send := func(flags uint8) {
		now += d
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Forward},
			Flags: wire.AckValid | flags, Ack: s.Tick() - 1, Base: s.Tick() - 1})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(uint32, []byte) {})
	}
	for k := 0; k < 10; k++ {
		send(wire.AckInSync)
	}
	send(wire.AskTransfer)
	x := &s.peerOf(1).xfer
	if !x.active || s.Stats.Transfers != 1 {
		t.Fatalf("asked: transfer under way %v, %d started", x.active, s.Stats.Transfers)
	}
	first := x.tick
	for k := 0; k < 40; k++ {
		send(wire.AskTransfer) // acknowledging snapshots past its tick, still asking
	}
	if !x.active || x.tick != first || s.Stats.Transfers != 1 {
		t.Fatalf("still asking: under way %v, tick %d (was %d), %d started", x.active, x.tick, first, s.Stats.Transfers)
	}
	for k := 0; k < staleTransfer; k++ {
		send(wire.AskTransfer)
	}
	if !x.active || x.tick == first || s.Stats.Transfers != 2 {
		t.Fatalf("asking long after: tick %d (was %d), %d started", x.tick, first, s.Stats.Transfers)
	}
	send(wire.AckInSync) // took it
	if x.active {
		t.Fatal("the client stopped asking and the transfer goes on")
	}
}
