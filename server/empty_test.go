package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// emptyServer returns a clocked server for the arena with two player slots
// and Empty set.
func emptyServer(t *testing.T) *Server {
	t.Helper()
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Empty = true
	return New(w, sc, protocol.ModeState, cfg)
}

// helloEmpty has connection conn ask to join at time now.
func helloEmpty(t *testing.T, s *Server, now time.Duration, conn uint32) {
	t.Helper()
	b := wire.AppendHello(nil, &wire.Hello{Nonce: uint64(conn), Mode: uint8(protocol.ModeState), Scene: s.Scene().ID})
	if err := s.Receive(now, conn, b); err != nil {
		t.Fatal(err)
	}
}

// cubes reports which player cubes are in the world.
func cubes(s *Server) []bool {
	var on []bool
	for _, b := range s.Scene().Players {
		on = append(on, s.World().Enabled(b))
	}
	return on
}

type recorded struct {
	ticks  []uint32
	events []game.Event
}

func (r *recorded) Event(t uint32, e game.Event) error {
	r.ticks, r.events = append(r.ticks, t), append(r.events, e)
	return nil
}
func (r *recorded) Tick(uint32, []game.Input, uint64, *physics.State) error { return nil }
func (r *recorded) Skip(uint32, uint32) error                               { return nil }

func TestEmptyServerHasCubesOnlyForItsClients(t *testing.T) {
	s := emptyServer(t)
	rec := &recorded{}
	s.Recorder = rec
	var joins, leaves []uint32
	s.OnJoin = func(p int, conn uint32) { joins = append(joins, conn) }
	s.OnLeave = func(p int, conn uint32, st PeerStats, timedOut bool) {
		if timedOut {
			t.Errorf("connection %d timed out", conn)
		}
		leaves = append(leaves, conn)
	}
	tick := 15625 * time.Microsecond
	now := time.Duration(0)
	turn := func() {
		t.Helper()
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(uint32, []byte) {})
		now += tick
	}
	turn()
	if s.Tick() != 0 {
		t.Fatalf("the clock ran before a client came: tick %d", s.Tick())
	}
	helloEmpty(t, s, now, 7)
	turn()
	if on := cubes(s); !on[0] || on[1] {
		t.Fatalf("after the first join, cubes in the world: %v, want [true false]", on)
	}
	// Every event is in the record, at the first tick: both cubes leave,
	// the first client's comes back.
	want := []game.Event{{Kind: game.Leave, Player: 0}, {Kind: game.Leave, Player: 1}, {Kind: game.Join, Player: 0}}
	if len(rec.events) != len(want) {
		t.Fatalf("recorded events %v, want %v", rec.events, want)
	}
	for i, e := range want {
		if rec.events[i] != e || rec.ticks[i] != 0 {
			t.Fatalf("recorded events %v at ticks %v, want %v at tick 0", rec.events, rec.ticks, want)
		}
	}
	for range 10 {
		turn()
	}
	// The client leaves and another takes its slot before the next tick:
	// the cube leaves and comes back at its spawn, both events recorded.
	s.Leave(7)
	helloEmpty(t, s, now, 8)
	turn()
	if on := cubes(s); !on[0] || on[1] {
		t.Fatalf("after a leave and a join in one tick, cubes in the world: %v, want [true false]", on)
	}
	n := len(rec.events)
	if got := rec.events[n-2:]; got[0].Kind != game.Leave || got[1].Kind != game.Join || got[0].Player != 0 || got[1].Player != 0 {
		t.Fatalf("the last events are %v, want a leave then a join of player 0", got)
	}
	helloEmpty(t, s, now, 9)
	turn()
	if on := cubes(s); !on[0] || !on[1] {
		t.Fatalf("with two clients, cubes in the world: %v", on)
	}
	s.Leave(9)
	turn()
	if on := cubes(s); !on[0] || on[1] {
		t.Fatalf("after the second client left: %v", on)
	}
	if len(joins) != 3 || len(leaves) != 2 || leaves[0] != 7 || leaves[1] != 9 {
		t.Fatalf("joins %v, leaves %v", joins, leaves)
	}
}

func TestSilentClientLeavesWithItsStats(t *testing.T) {
	s := emptyServer(t)
	var got *PeerStats
	s.OnLeave = func(p int, conn uint32, st PeerStats, timedOut bool) {
		if !timedOut || conn != 3 || p != 0 {
			t.Errorf("leave of slot %d, connection %d, timed out %v", p, conn, timedOut)
		}
		got = &st
	}
	helloEmpty(t, s, 0, 3)
	if err := s.Advance(0); err != nil {
		t.Fatal(err)
	}
	end := s.Timeout + time.Second
	if err := s.Advance(end); err != nil {
		t.Fatal(err)
	}
	if got == nil || s.Stats.TimedOut != 1 || s.Peers() != 0 {
		t.Fatalf("a silent client did not leave: stats %+v, peers %d", s.Stats, s.Peers())
	}
	if got.Repeated != 0 || got.Applied != 0 {
		t.Fatalf("a client that sent no input: %+v", *got)
	}
	if left := s.TakeLeft(nil); len(left) != 1 || left[0] != 3 {
		t.Fatalf("connections to close: %v", left)
	}
}
