package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/transport"
)

// TestHostClosesConnectionsThatNeverJoin: a connection that sends no
// acceptable Hello within JoinTimeouts of the server's Timeout is closed,
// and counted; one that joined stays.
func TestHostClosesConnectionsThatNeverJoin(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	net, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHost(s, net, 64)
	if err != nil {
		t.Fatal(err)
	}
	silent, err := net.Connect(1)
	if err != nil {
		t.Fatal(err)
	}
	player, err := net.Connect(2)
	if err != nil {
		t.Fatal(err)
	}
	d := tick.Duration(s.world.Config().Dt)
	var now time.Duration
	for now <= JoinTimeouts*s.Timeout+time.Second {
		if now == 0 {
			if err := player.Send(now, wire.AppendHello(nil, &wire.Hello{Nonce: 9, Mode: uint8(s.mode), Scene: sc.ID})); err != nil {
				t.Fatal(err)
			}
		} else {
			b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{0}})
			if err := player.Send(now, b); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.Turn(now); err != nil {
			t.Fatal(err)
		}
		if now > s.Timeout+time.Second && now < JoinTimeouts*s.Timeout && (h.NeverJoined != 0 || silent.Err() != nil) {
			t.Fatalf("at %v the silent connection is closed already: a Hello may still be on its way", now)
		}
		now += d
	}
	if h.NeverJoined != 1 || silent.Err() == nil {
		t.Fatalf("never joined %d, silent connection's error %v", h.NeverJoined, silent.Err())
	}
	if player.Err() != nil || s.Peers() != 1 {
		t.Fatalf("the player: %v, %d peers", player.Err(), s.Peers())
	}
}
