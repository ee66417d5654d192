package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/protocol"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/wire"
)

// TestStateSyncRelaysEvents: a state-sync server with one player sends it
// no relay while nothing happened that its inputs do not say (after the
// first ticks, whose inputs came late and were repeated), a relay with the
// nudge from the tick the server applies one until the client
// acknowledges a message after it, and none again after that.
func TestStateSyncRelaysEvents(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config())
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
		step()
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

// TestStateSyncRelaysRepeatedInputs: a state-sync server with one player
// whose input for a tick did not come (it repeats the last one) relays
// the inputs it applied until the client acknowledges a message after
// that tick: the client replays with them, as it replays with a nudge.
func TestStateSyncRelaysRepeatedInputs(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config())
	hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	relays := 0
	step := func(send bool) {
		now += d
		if send {
			ack := s.Tick() - 3
			b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Forward},
				Flags: wire.AckValid | wire.AckInSync, Ack: ack, Base: ack})
			if err := s.Receive(now, 1, b); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(_ uint32, b []byte) {
			if k, _ := wire.Kind(b); k == wire.KindRelay {
				relays++
			}
		})
	}
	for range 10 { // the first ticks' inputs come late
		step(true)
	}
	relays = 0
	for range 10 {
		step(true)
	}
	if relays != 0 {
		t.Fatalf("%d relays before any input was missed", relays)
	}
	step(false) // this tick's input never comes: the last is repeated
	for range 3 {
		step(true)
	}
	if relays < 3 {
		t.Errorf("%d relays after a repeated input, want one a tick until the ack passes it", relays)
	}
	relays = 0
	for range 5 {
		step(true)
	}
	if relays != 0 {
		t.Errorf("%d relays after the ack passed the repeated tick", relays)
	}
}
