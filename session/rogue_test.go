package session

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/transport"
)

// rogue is a client that joins and then misbehaves every tick: inputs for
// another player's cube, for ticks far ahead, many messages a tick, and
// bytes that are no message at all.
type rogue struct {
	t      *testing.T
	net    *transport.MemClient
	player int
	joined bool
	inbox  [][]byte
	tick   uint32
}

func (r *rogue) turn(s *Session) {
	now := s.Now()
	r.inbox = r.net.Receive(now, r.inbox[:0])
	for _, b := range r.inbox {
		var w wire.Welcome
		if k, _ := wire.Kind(b); k == wire.KindWelcome && wire.DecodeWelcome(b, &w) == nil && w.Result == wire.Accepted {
			r.joined, r.player, r.tick = true, int(w.Player), w.Tick
		}
	}
	send := func(b []byte) {
		if err := r.net.Send(now, b); err != nil {
			r.t.Errorf("the rogue's datagram of %d bytes: %v", len(b), err)
		}
	}
	if !r.joined {
		send(wire.AppendHello(nil, &wire.Hello{Nonce: 666, Mode: uint8(s.Server.Mode()), Scene: s.Server.Scene().ID}))
		return
	}
	r.tick++
	other := (r.player + 1) % 2 // an honest client's cube
	b, _ := wire.AppendInput(nil, &wire.Input{Player: uint8(other), First: r.tick, Inputs: []game.Input{game.Left}})
	send(b)
	b, _ = wire.AppendInput(nil, &wire.Input{Player: uint8(r.player), First: r.tick + 100000, Inputs: []game.Input{game.Jump}})
	send(b)
	for i := 0; i < 12; i++ { // three times the rate a tick allows
		b, _ = wire.AppendInput(nil, &wire.Input{Player: uint8(r.player), First: r.tick, Inputs: []game.Input{game.Right | game.Pull}})
		send(b)
	}
	send([]byte{wire.KindSnapshot, 0xee, 1, 2, 3})
	send(wire.AppendHave(nil, &wire.Have{Tick: r.tick, Count: 9, Got: []byte{0xff, 1}}))
}

// TestRogueClientChangesNoOneElse: two honest clients and one that sends
// inputs for another's cube, for ticks far ahead, floods and garbage, for
// a minute on the average preset. The server counts each kind of abuse on
// the rogue's connection alone, and the honest clients end in sync with
// nothing rejected and no nondeterminism.
func TestRogueClientChangesNoOneElse(t *testing.T) {
	cfg := presetConfig(t, "average")
	cfg.Players = 2
	cfg.Options.Players = 3
	var r *rogue
	s, sum, err := Run(cfg, 60, func(s *Session) error {
		c, err := s.Net.Connect(99)
		if err != nil {
			return err
		}
		r = &rogue{t: t, net: c}
		s.Poll = func(s *Session) bool { r.turn(s); return false }
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !r.joined {
		t.Fatal("the rogue never joined")
	}
	st, ok := s.Server.PlayerStats(r.player)
	if !ok || st.OtherPlayer == 0 || st.TooFar == 0 || st.TooFast == 0 || st.Rejected < st.OtherPlayer+st.TooFast {
		t.Fatalf("the rogue's counters: %+v", st)
	}
	for i, p := range sum.Players {
		if !p.Final.InSync || p.Mispredictions.Nondeterminism != 0 || s.Clients[i].Stats.Rejected.Total() != 0 {
			t.Errorf("honest client %d: final %+v, mispredictions %+v, %s rejected", i, p.Final, p.Mispredictions, s.Clients[i].Stats.Rejected.String())
		}
		hs, _ := s.Server.PlayerStats(s.Clients[i].Slot())
		if hs.Rejected != 0 || hs.OtherPlayer != 0 || hs.TooFast != 0 || hs.TooFar != 0 {
			t.Errorf("honest client %d charged with the rogue's abuse: %+v", i, hs)
		}
	}
}
