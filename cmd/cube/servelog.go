package main

import (
	"time"

	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/transport"
)

// netWatch is the server's transport as its host sees it, noting each
// peer's address and why it went, for the server's summary.
type netWatch struct {
	transport.Server
	peers       map[transport.PeerID]*peerNote // connected, until it leaves or goes
	neverJoined int                            // connections gone without a player slot: refused, or gone before their Hello was answered
}

// peerNote is what the watch knows of one connection.
type peerNote struct {
	addr   string
	joined bool
	gone   bool
	reason transport.Reason
	detail string
	final  transport.Counters // its counters when it went
}

func newNetWatch(s transport.Server) *netWatch {
	return &netWatch{Server: s, peers: make(map[transport.PeerID]*peerNote)}
}

// Events passes the transport's events on and notes them.
func (w *netWatch) Events(dst []transport.PeerEvent) []transport.PeerEvent {
	n := len(dst)
	dst = w.Server.Events(dst)
	for _, e := range dst[n:] {
		switch e.Kind {
		case transport.Connected:
			w.peers[e.Peer] = &peerNote{addr: e.Addr}
		case transport.Gone:
			p := w.peers[e.Peer]
			if p == nil {
				continue // it left the game first (a silent client)
			}
			p.gone, p.reason, p.detail, p.final = true, e.Reason, e.Detail, e.Counters
			if !p.joined {
				w.neverJoined++
				delete(w.peers, e.Peer)
			}
		}
	}
	return dst
}

// playerRecord is one client's stay in a player slot.
type playerRecord struct {
	Slot        int     `json:"slot"`
	Peer        uint32  `json:"peer"`
	Addr        string  `json:"addr"`
	Joined      float64 `json:"joined_s"` // seconds since the server started
	Left        float64 `json:"left_s"`
	How         string  `json:"how"` // how it left
	Applied     uint64  `json:"inputs_applied"`
	Repeated    uint64  `json:"repeated_ticks"`
	Late        uint64  `json:"late_inputs"`
	TooFar      uint64  `json:"too_far"`
	TooFast     uint64  `json:"too_fast"`
	OtherPlayer uint64  `json:"other_player"`
	Rejected    uint64  `json:"rejected_messages"`
	BufferP95   float64 `json:"input_buffer_p95_ticks"`
	// RecvDropped: its datagrams dropped because its share of the
	// server's receive queue was full (it sent faster than the server
	// takes).
	RecvDropped uint64 `json:"recv_queue_dropped"`
}

// serverLog keeps every client's stay, from the server's OnJoin and
// OnLeave and the watch's notes.
type serverLog struct {
	watch    *netWatch
	clock    func() time.Duration
	players  []playerRecord // in the order they joined
	open     map[uint32]int // a connection in a slot: its record's index
	timedOut int
	peak     int
	stopping bool // the server is shutting down: those who leave now were there at the end
}

func newServerLog(w *netWatch, clock func() time.Duration) *serverLog {
	return &serverLog{watch: w, clock: clock, open: make(map[uint32]int)}
}

// attach hooks the log to s.
func (l *serverLog) attach(s *server.Server) {
	s.OnJoin, s.OnLeave = l.join, l.leave
}

func (l *serverLog) join(slot int, conn uint32) {
	r := playerRecord{Slot: slot, Peer: conn, Joined: l.clock().Seconds(), Left: -1}
	if p := l.watch.peers[transport.PeerID(conn)]; p != nil {
		p.joined = true
		r.Addr = p.addr
	}
	l.open[conn] = len(l.players)
	l.players = append(l.players, r)
	l.peak = max(l.peak, len(l.open))
}

func (l *serverLog) leave(slot int, conn uint32, st server.PeerStats, timedOut bool) {
	i, ok := l.open[conn]
	if !ok {
		return
	}
	delete(l.open, conn)
	r := &l.players[i]
	r.Left = l.clock().Seconds()
	r.Applied, r.Repeated, r.Late, r.TooFar, r.TooFast = st.Applied, st.Repeated, st.Late, st.TooFar, st.TooFast
	r.OtherPlayer, r.Rejected, r.BufferP95 = st.OtherPlayer, st.Rejected, st.DepthP95
	p := l.watch.peers[transport.PeerID(conn)]
	delete(l.watch.peers, transport.PeerID(conn))
	r.RecvDropped = l.watch.recvDropped(transport.PeerID(conn), p)
	switch {
	case l.stopping && (p == nil || !p.gone || p.reason == transport.ReasonLocal):
		r.How = "there until the server stopped"
	case timedOut:
		r.How = "timed out: no progress for 5 s"
		l.timedOut++
	case p == nil || !p.gone:
		r.How = "left"
	case p.reason == transport.ReasonClosed:
		r.How = "closed by the client"
	case p.reason == transport.ReasonTimeout:
		r.How = "timed out: no packet for 5 s"
		l.timedOut++
	case p.reason == transport.ReasonLocal:
		r.How = "closed by the server"
	default:
		r.How = "lost: " + p.detail
	}
}

// stillThere returns the connections still in a slot, in the order they
// joined.
func (l *serverLog) stillThere() []uint32 {
	var out []uint32
	for _, r := range l.players {
		if _, ok := l.open[r.Peer]; ok {
			out = append(out, r.Peer)
		}
	}
	return out
}

// left returns the number of clients that left their slot.
func (l *serverLog) left() int { return len(l.players) - len(l.open) }

// recvDropped returns the datagrams of peer id, noted as p, that its share
// of the receive queue dropped: from its final counters when it is gone,
// else from the transport's live ones.
func (w *netWatch) recvDropped(id transport.PeerID, p *peerNote) uint64 {
	if p != nil && p.gone {
		return p.final.DroppedRecvQueue
	}
	for _, ps := range w.Stats().Peers {
		if ps.Peer == id {
			return ps.DroppedRecvQueue
		}
	}
	return 0
}
