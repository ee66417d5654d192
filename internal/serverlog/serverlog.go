// Package serverlog keeps what `cube serve` reports of its clients: each
// connection's address and why it went (Watch, over the server's
// transport) and each client's stay in a player slot (Log).
package serverlog

import (
	"time"

	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/transport"
)

// Watch is the server's transport as its host sees it, noting each
// peer's address and why it went, for the server's summary.
type Watch struct {
	transport.Server
	peers       map[transport.PeerID]*peerNote // connected, until it leaves or goes
	NeverJoined int                            // connections gone without a player slot: refused, or gone before their Hello was answered
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

// NewWatch returns a watch over s.
func NewWatch(s transport.Server) *Watch {
	return &Watch{Server: s, peers: make(map[transport.PeerID]*peerNote)}
}

// Events passes the transport's events on and notes them.
func (w *Watch) Events(dst []transport.PeerEvent) []transport.PeerEvent {
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
				w.NeverJoined++
				delete(w.peers, e.Peer)
			}
		}
	}
	return dst
}

// Player is one client's stay in a player slot.
type Player struct {
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
	// UnknownViews: snapshot views its acks named that the server does
	// not hold (state sync): never sent, or older than its ring of views;
	// left out of its baselines.
	UnknownViews uint64 `json:"unknown_views"`

	timedOut bool // How says it timed out
}

// KeptStays is how many closed stays a Log keeps in full: the most
// recent ones. Older stays are folded into Log.Earlier, so that a client
// that joins and leaves all day long costs the log (and the summary's
// per_player list) at most KeptStays closed stays plus one per open slot.
const KeptStays = 64

// Earlier is the sum of the closed stays a Log no longer keeps in full.
type Earlier struct {
	Stays        int    `json:"stays"`     // stays folded in
	TimedOut     int    `json:"timed_out"` // of them, those that timed out
	Applied      uint64 `json:"inputs_applied"`
	Repeated     uint64 `json:"repeated_ticks"`
	Late         uint64 `json:"late_inputs"`
	TooFar       uint64 `json:"too_far"`
	TooFast      uint64 `json:"too_fast"`
	OtherPlayer  uint64 `json:"other_player"`
	Rejected     uint64 `json:"rejected_messages"`
	RecvDropped  uint64 `json:"recv_queue_dropped"`
	UnknownViews uint64 `json:"unknown_views"`
}

// Other returns the folded stays that did not time out.
func (e *Earlier) Other() int { return e.Stays - e.TimedOut }

// add folds r into e.
func (e *Earlier) add(r *Player) {
	e.Stays++
	if r.timedOut {
		e.TimedOut++
	}
	e.Applied += r.Applied
	e.Repeated += r.Repeated
	e.Late += r.Late
	e.TooFar += r.TooFar
	e.TooFast += r.TooFast
	e.OtherPlayer += r.OtherPlayer
	e.Rejected += r.Rejected
	e.RecvDropped += r.RecvDropped
	e.UnknownViews += r.UnknownViews
}

// Log keeps the clients' stays, from the server's OnJoin and OnLeave and
// the watch's notes: every open stay and the last KeptStays closed ones in
// full, the older ones summed in Earlier. Its memory is bounded by the
// player slots plus KeptStays, however many clients come and go.
type Log struct {
	watch *Watch
	clock func() time.Duration
	// Players are the open stays and the last KeptStays closed ones, in
	// the order they joined.
	Players []Player
	// Earlier sums the closed stays dropped from Players, the oldest.
	Earlier  Earlier
	Joined   int             // stays begun, all of them
	open     map[uint32]bool // connections in a slot
	closed   int             // closed stays in Players
	TimedOut int             // clients that timed out
	Peak     int             // the most clients in a slot at once
	// Stopping says the server is shutting down: those who leave now
	// were there at the end.
	Stopping bool
}

// NewLog returns a log that reads the server's time from clock.
func NewLog(w *Watch, clock func() time.Duration) *Log {
	return &Log{watch: w, clock: clock, open: make(map[uint32]bool)}
}

// Attach hooks the log to s.
func (l *Log) Attach(s *server.Server) {
	s.OnJoin, s.OnLeave = l.join, l.leave
}

func (l *Log) join(slot int, conn uint32) {
	r := Player{Slot: slot, Peer: conn, Joined: l.clock().Seconds(), Left: -1}
	if p := l.watch.peers[transport.PeerID(conn)]; p != nil {
		p.joined = true
		r.Addr = p.addr
	}
	l.open[conn] = true
	l.Players = append(l.Players, r)
	l.Joined++
	l.Peak = max(l.Peak, len(l.open))
}

func (l *Log) leave(slot int, conn uint32, st server.PeerStats, timedOut bool) {
	if !l.open[conn] {
		return
	}
	delete(l.open, conn)
	i := len(l.Players) - 1
	for ; i >= 0; i-- { // at most KeptStays plus the slots to look through
		if l.Players[i].Peer == conn && l.Players[i].Left < 0 {
			break
		}
	}
	if i < 0 {
		return
	}
	r := &l.Players[i]
	r.Left = l.clock().Seconds()
	r.Applied, r.Repeated, r.Late, r.TooFar, r.TooFast = st.Applied, st.Repeated, st.Late, st.TooFar, st.TooFast
	r.OtherPlayer, r.Rejected, r.BufferP95 = st.OtherPlayer, st.Rejected, st.DepthP95
	r.UnknownViews = st.UnknownViews
	p := l.watch.peers[transport.PeerID(conn)]
	delete(l.watch.peers, transport.PeerID(conn))
	r.RecvDropped = l.watch.recvDropped(transport.PeerID(conn), p)
	switch {
	case l.Stopping && (p == nil || !p.gone || p.reason == transport.ReasonLocal):
		r.How = "there until the server stopped"
	case timedOut:
		r.How = "timed out: no progress for 5 s"
		r.timedOut = true
	case p == nil || !p.gone:
		r.How = "left"
	case p.reason == transport.ReasonClosed:
		r.How = "closed by the client"
	case p.reason == transport.ReasonTimeout:
		r.How = "timed out: no packet for 5 s"
		r.timedOut = true
	case p.reason == transport.ReasonLocal:
		r.How = "closed by the server"
	default:
		r.How = "lost: " + p.detail
	}
	if r.timedOut {
		l.TimedOut++
	}
	l.closed++
	l.fold()
}

// fold moves the oldest closed stays beyond KeptStays into Earlier.
func (l *Log) fold() {
	if l.closed <= KeptStays {
		return
	}
	for i := range l.Players {
		if l.Players[i].Left >= 0 {
			l.Earlier.add(&l.Players[i])
			l.Players = append(l.Players[:i], l.Players[i+1:]...)
			l.closed--
			return
		}
	}
}

// StillThere returns the connections still in a slot, in the order they
// joined.
func (l *Log) StillThere() []uint32 {
	var out []uint32
	for _, r := range l.Players {
		if r.Left < 0 && l.open[r.Peer] {
			out = append(out, r.Peer)
		}
	}
	return out
}

// Left returns the number of clients that left their slot.
func (l *Log) Left() int { return l.Joined - len(l.open) }

// recvDropped returns the datagrams of peer id, noted as p, that its share
// of the receive queue dropped: from its final counters when it is gone,
// else from the transport's live ones.
func (w *Watch) recvDropped(id transport.PeerID, p *peerNote) uint64 {
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
