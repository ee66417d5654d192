package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// TestStateSyncRelaysEvents: a state-sync server with one player sends it
// no relay while nothing happened that its inputs do not say, a relay
// with the nudge from the tick the server applies one until the client
// acknowledges a message after it, and none again after that.
func TestStateSyncRelaysEvents(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	lag := uint32(3) // the client acknowledges the snapshot of 3 ticks ago
	step := func() (relays []wire.Relay) {
		now += d
		ack := s.Tick() - lag
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{0},
			Flags: wire.AckValid | wire.AckInSync, Ack: ack, Base: ack})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(_ uint32, b []byte) {
			if k, _ := wire.Kind(b); k == wire.KindRelay {
				var m wire.Relay
				if err := wire.DecodeRelay(b, &m); err != nil {
					t.Fatal(err)
				}
				relays = append(relays, m)
			}
		})
		return relays
	}
	for range 10 {
		if r := step(); len(r) != 0 {
			t.Fatalf("a relay at tick %d with nothing to say: %+v", s.Tick(), r)
		}
	}
	nudged := s.Tick()
	s.Nudge(0, physics.Vec3{X: 1})
	with := 0
	for range 10 {
		for _, m := range step() {
			if len(m.Events) != 1 || m.First+uint32(m.Events[0].Offset) != nudged || m.Events[0].Event.Kind != game.Nudge {
				t.Fatalf("relay of ticks %d+%d: events %+v, want the nudge of tick %d", m.First, m.Count, m.Events, nudged)
			}
			with++
		}
	}
	if with < int(lag) {
		t.Errorf("%d relays told the nudge, want one a tick until the ack passed it (%d)", with, lag)
	}
	for range 5 {
		if r := step(); len(r) != 0 {
			t.Fatalf("a relay at tick %d after the ack passed the nudge: %+v", s.Tick(), r)
		}
	}
}
