package serverlog

import (
	"testing"
	"time"

	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/transport"
)

// eventServer is a transport.Server that only hands out scripted events.
type eventServer struct {
	transport.Server
	events []transport.PeerEvent
}

func (s *eventServer) Events(dst []transport.PeerEvent) []transport.PeerEvent {
	dst = append(dst, s.events...)
	s.events = nil
	return dst
}

func (s *eventServer) Stats() transport.ServerStats { return transport.ServerStats{} }

// TestLogTellsHowEachClientLeft: two clients join; one closes its
// connection, the other is still there when the server stops; a third
// connection goes without joining. The log keeps their addresses, how
// each left, and the counts of the summary.
func TestLogTellsHowEachClientLeft(t *testing.T) {
	net := &eventServer{}
	w := NewWatch(net)
	now := time.Duration(0)
	l := NewLog(w, func() time.Duration { return now })
	net.events = []transport.PeerEvent{
		{Peer: 1, Kind: transport.Connected, Addr: "127.0.0.1:1001"},
		{Peer: 2, Kind: transport.Connected, Addr: "127.0.0.1:1002"},
		{Peer: 3, Kind: transport.Connected, Addr: "127.0.0.1:1003"},
	}
	w.Events(nil)
	l.join(0, 1)
	now = time.Second
	l.join(1, 2)
	net.events = []transport.PeerEvent{
		{Peer: 1, Kind: transport.Gone, Reason: transport.ReasonClosed, Counters: transport.Counters{DroppedRecvQueue: 4}},
		{Peer: 3, Kind: transport.Gone, Reason: transport.ReasonClosed},
	}
	w.Events(nil)
	now = 2 * time.Second
	l.leave(0, 1, server.PeerStats{Applied: 10}, false)
	if got := l.StillThere(); len(got) != 1 || got[0] != 2 {
		t.Fatalf("still there %v, want [2]", got)
	}
	l.Stopping = true
	l.leave(1, 2, server.PeerStats{}, false)
	p := l.Players
	if len(p) != 2 || p[0].Addr != "127.0.0.1:1001" || p[0].How != "closed by the client" || p[0].Applied != 10 || p[0].RecvDropped != 4 || p[0].Left != 2 {
		t.Errorf("first stay %+v", p[0])
	}
	if p[1].How != "there until the server stopped" || p[1].Joined != 1 {
		t.Errorf("second stay %+v", p[1])
	}
	if l.Left() != 2 || l.Peak != 2 || l.TimedOut != 0 || w.NeverJoined != 1 {
		t.Errorf("left %d, peak %d, timed out %d, never joined %d; want 2, 2, 0, 1", l.Left(), l.Peak, l.TimedOut, w.NeverJoined)
	}
}

// TestChurnKeepsTheLogBounded: a churner joining and leaving a thousand
// times leaves at most KeptStays closed stays (plus the open ones) in the
// log; the rest are folded into Earlier, and no count is lost.
func TestChurnKeepsTheLogBounded(t *testing.T) {
	net := &eventServer{}
	w := NewWatch(net)
	l := NewLog(w, func() time.Duration { return 0 })
	l.join(1, 9999) // a player who stays throughout
	const stays = 1000
	for i := uint32(0); i < stays; i++ {
		l.join(0, 10+i)
		l.leave(0, 10+i, server.PeerStats{Applied: 2, Rejected: 1}, i%2 == 0)
	}
	if n := len(l.Players); n > 64+1 {
		t.Fatalf("%d stays kept after %d churned, want at most %d", n, stays, 64+1)
	}
	if len(l.Players) != KeptStays+1 || l.Players[0].Peer != 9999 || l.Players[0].Left != -1 {
		t.Fatalf("kept %d stays, first %+v; want %d, the open stay first", len(l.Players), l.Players[0], KeptStays+1)
	}
	if last := l.Players[len(l.Players)-1]; last.Peer != 10+stays-1 {
		t.Errorf("last kept stay is peer %d, want %d", last.Peer, 10+stays-1)
	}
	e := l.Earlier
	if e.Stays != stays-KeptStays || e.Applied != 2*uint64(e.Stays) || e.Rejected != uint64(e.Stays) || e.TimedOut+e.Other() != e.Stays {
		t.Errorf("earlier %+v, want %d stays folded", e, stays-KeptStays)
	}
	if l.Joined != stays+1 || l.Left() != stays || l.TimedOut != stays/2 {
		t.Errorf("joined %d, left %d, timed out %d; want %d, %d, %d", l.Joined, l.Left(), l.TimedOut, stays+1, stays, stays/2)
	}
	if got := l.StillThere(); len(got) != 1 || got[0] != 9999 {
		t.Errorf("still there %v, want [9999]", got)
	}
}
