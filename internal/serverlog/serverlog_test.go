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
