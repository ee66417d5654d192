package predict

import (
	"math"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// hostileRelays are what a hostile server makes of a real relay: every
// field at a bound the wire allows, one at a time.
var hostileRelays = []struct {
	name string
	make func(m *wire.Relay)
}{
	{"heard 2^30 ahead", func(m *wire.Relay) { m.Heard = m.First + uint32(m.Count) + 1<<30 }},
	{"heard 2^30 behind", func(m *wire.Relay) { m.Heard = m.First + uint32(m.Count) - 1<<30 }},
	{"heard input 2^30 ahead", func(m *wire.Relay) { m.HeardInput = m.First + uint32(m.Count) + 1<<30 }},
	{"first 2^20 ahead", func(m *wire.Relay) {
		m.First += 1 << 20
		m.Heard += 1 << 20
		m.HeardInput += 1 << 20
	}},
	{"first 2^20 behind", func(m *wire.Relay) {
		m.First -= 1 << 20
		m.Heard -= 1 << 20
		m.HeardInput -= 1 << 20
	}},
	{"wrong hash", func(m *wire.Relay) { m.Hash ^= 0x5a5a5a5a5a5a5a5a }},
	{"nudge of 1e300", func(m *wire.Relay) {
		m.Events = append(m.Events[:0], wire.TickEvent{Offset: 0, Event: game.Event{Kind: game.Nudge, Impulse: physics.Vec3{X: 1e300, Y: -1e300, Z: 1e300}}})
	}},
	{"nudge of the largest float", func(m *wire.Relay) {
		m.Events = append(m.Events[:0], wire.TickEvent{Offset: 0, Event: game.Event{Kind: game.Nudge, Impulse: physics.Vec3{Y: math.MaxFloat64}}})
	}},
	{"a player who is not there", func(m *wire.Relay) {
		m.Events = append(m.Events[:0], wire.TickEvent{Offset: 0, Event: game.Event{Kind: game.Join, Player: 200}})
	}},
	{"every input pressed", func(m *wire.Relay) {
		for i := range m.Inputs {
			m.Inputs[i] = game.InputMask
		}
	}},
}

// TestAHostileServer plays an input-sync client, its time sync on, against
// a server whose relays are, every few ticks, one of hostileRelays in
// place of the real one. Whatever arrives: no value of the client's world
// leaves its bounds (no NaN), its tick never goes back and jumps ahead at
// most maxJump at a turn, it holds at most the ring in all, every refusal
// is an ErrRejected whose text has no control byte, and once the hostile
// relays stop the client is back in step with the server.
func TestAHostileServer(t *testing.T) {
	for _, hr := range hostileRelays {
		t.Run(hr.name, func(t *testing.T) {
			h := newHarness(t, "arena", game.Options{}, InputSync, 1000)
			h.c.Sync.On = true
			var m wire.Relay
			for i := 0; i < 400; i++ {
				before := h.c.Tick()
				h.clientStep(script(h.c.Tick()))
				h.deliverUp()
				h.serverSend(true)
				var errs []error
				for _, b := range h.down {
					if k, _ := wire.Kind(b); k == wire.KindRelay && i < 200 && i%7 == 3 {
						if err := wire.DecodeRelay(b, &m); err != nil {
							t.Fatal(err)
						}
						hr.make(&m)
						b = wire.AppendRelay(nil, &m, m.Count)
					}
					if err := h.c.Receive(b); err != nil {
						errs = append(errs, err)
					}
				}
				h.down = h.down[:0]
				hostileTurn(t, h.c, i, before, errs)
			}
			// One relay that says the server heard the client 2^30 ticks
			// early holds it back at most the ring (maxJumpBack), 31 s:
			// the bound the client keeps against a server that lies.
			if h.c.Stats.HeldTicks > maxJumpBack+8 {
				t.Errorf("held %d ticks, more than the ring's %d", h.c.Stats.HeldTicks, maxJumpBack)
			}
			if cmp := h.c.Compared(); cmp.ClientHash != cmp.ServerHash || tick.After(h.s.Tick()-8, cmp.Tick) {
				t.Errorf("200 ticks after the last hostile relay: compared %+v, server at %d", cmp, h.s.Tick())
			}
		})
	}
}
