package transport

import (
	"fmt"
	"slices"
	"time"

	"github.com/cubelab/cube/netsim"
)

// memAddr is the server address an in-process client reports.
const memAddr = "mem"

// MemServer is the in-process Server. Clients attach with Connect, each
// over its own netsim.Pair; every datagram crosses the pair on the
// callers' virtual clock. There are no goroutines and no clocks, so the
// same seeds and the same calls give the same deliveries, bit for bit.
//
// The server and its clients must share one clock: the now passed to any
// of them must not be earlier than one passed before to any of them.
// A MemServer and its clients are not safe for concurrent use.
type MemServer struct {
	opts   Options
	st     *stream
	peers  []*memPeer // peers not yet reported gone, by ID
	nextID PeerID
	now    time.Duration // latest now seen

	closed    bool
	abandoned bool          // Abandon was called
	diedAt    time.Duration // when it was abandoned

	connected, gone uint64
	goneTotals      Counters
}

// memPeer is one attached client as the server sees it.
type memPeer struct {
	id        PeerID
	addr      string
	client    *MemClient
	c         counters // the server's view
	attached  bool     // on the links; false once it went away
	announced bool     // Events reported it connected
}

// NewMemServer returns an in-process server with options o (nil for the
// defaults).
func NewMemServer(o *Options) (*MemServer, error) {
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	return &MemServer{opts: opts, st: newStream(min(opts.QueueLen, opts.PeerQueueLen)), nextID: 1}, nil
}

// Connect attaches a new client over a perfect netsim.Pair whose random
// streams derive from seed; change its conditions with
// MemClient.SetConditions. Its Connected event is queued at once.
func (s *MemServer) Connect(seed uint64) (*MemClient, error) {
	if s.closed || s.abandoned {
		return nil, errorf(ErrRefused, nil, "transport: the in-process server is closed")
	}
	pair, err := netsim.NewPair(netsim.Conditions{}, seed)
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	p := &memPeer{id: s.nextID, addr: fmt.Sprintf("mem:%d", s.nextID), attached: true}
	s.nextID++
	c := &MemClient{srv: s, peer: p, pair: pair, now: s.now}
	p.client = c
	s.peers = append(s.peers, p)
	s.st.pushEvent(PeerEvent{Peer: p.id, Kind: Connected, Addr: p.addr})
	return c, nil
}

// find returns the peer with id, or nil.
func (s *MemServer) find(id PeerID) *memPeer {
	i, ok := slices.BinarySearchFunc(s.peers, id, func(p *memPeer, id PeerID) int {
		return int(int64(p.id) - int64(id))
	})
	if !ok {
		return nil
	}
	return s.peers[i]
}

// live returns the peer with id if it is connected and reported so.
func (s *MemServer) live(id PeerID) *memPeer {
	p := s.find(id)
	if p == nil || !p.attached || !p.announced {
		return nil
	}
	return p
}

// detach takes p off the links and queues its Gone event, after the
// datagrams that had arrived by then. Those still in flight either way
// are dropped with the links.
func (s *MemServer) detach(p *memPeer, r Reason, detail string) {
	if !p.attached {
		return
	}
	s.pull(p, max(s.now, p.client.now))
	p.attached = false
	s.st.pushEvent(PeerEvent{Peer: p.id, Kind: Gone, Addr: p.addr, Reason: r, Detail: detail})
}

// pull moves the datagrams p's outgoing link delivers by now into the
// stream.
func (s *MemServer) pull(p *memPeer, now time.Duration) {
	for _, pk := range p.client.pair.Up.Receive(now) {
		if !s.st.pushDatagram(p.id, &p.c, pk.Data) {
			p.c.countRecvQueue(len(pk.Data))
		}
	}
}

func (s *MemServer) advance(now time.Duration) {
	s.now = max(s.now, now)
}

// Receive implements Server. It moves what the links deliver by now into
// the stream, peer by peer in ID order, and reports clients abandoned for
// the idle timeout as gone.
func (s *MemServer) Receive(now time.Duration, dst []Datagram) []Datagram {
	if s.closed || s.abandoned {
		// What arrived before the end is still handed out, so that
		// Events can reach the Gone events behind it.
		return s.st.takeDatagrams(dst)
	}
	s.advance(now)
	for _, p := range s.peers {
		if !p.attached {
			continue
		}
		s.pull(p, now)
		if c := p.client; c.abandoned && now >= c.diedAt+s.opts.IdleTimeout {
			s.detach(p, ReasonTimeout, "")
		}
	}
	return s.st.takeDatagrams(dst)
}

// Events implements Server.
func (s *MemServer) Events(dst []PeerEvent) []PeerEvent {
	n := len(dst)
	dst = s.st.takeEvents(dst)
	for i, ev := range dst[n:] {
		p := s.find(ev.Peer)
		if p == nil {
			continue
		}
		switch ev.Kind {
		case Connected:
			p.announced = true
			s.connected++
		case Gone:
			s.gone++
			c := p.c.snapshot()
			dst[n+i].Counters = c
			s.goneTotals.add(c)
			s.peers = slices.DeleteFunc(s.peers, func(q *memPeer) bool { return q == p })
		}
	}
	return dst
}

// Send implements Server. The datagram enters the peer's incoming link,
// under the conditions its client set.
func (s *MemServer) Send(now time.Duration, to PeerID, b []byte) error {
	if s.closed || s.abandoned {
		return ErrClosed
	}
	p := s.live(to)
	if p == nil {
		return unknownPeer(to)
	}
	if len(b) > MaxDatagram {
		p.c.countSize(len(b))
		return tooLarge(len(b))
	}
	s.advance(now)
	p.c.countSent(len(b))
	if conditionedSend(p.client.pair.Down, now, b) {
		p.client.c.droppedIn.Add(1)
		p.client.c.droppedBytes.Add(uint64(len(b)))
	}
	return nil
}

// conditionedSend sends b on l and reports whether the link dropped it
// (loss or a full bandwidth queue).
func conditionedSend(l *netsim.Link, now time.Duration, b []byte) bool {
	before := l.Stats()
	l.Send(now, b)
	after := l.Stats()
	return after.Lost+after.QueueDropped != before.Lost+before.QueueDropped
}

// Trust implements Server; in process there is no connection cap, and so
// nothing to do.
func (s *MemServer) Trust(PeerID) {}

// Disconnect implements Server. The client's Err then reports that the
// server closed the connection, with reason.
func (s *MemServer) Disconnect(to PeerID, reason string) error {
	if s.closed || s.abandoned {
		return ErrClosed
	}
	p := s.live(to)
	if p == nil {
		return unknownPeer(to)
	}
	p.client.lose(&LostError{Addr: memAddr, Reason: ReasonClosed, Detail: reason})
	s.detach(p, ReasonLocal, reason)
	return nil
}

// Stats implements Server. Bogus is always zero in process.
func (s *MemServer) Stats() ServerStats {
	st := ServerStats{Totals: s.goneTotals, Connected: s.connected, Gone: s.gone}
	for _, p := range s.peers {
		c := p.c.snapshot()
		st.Totals.add(c)
		if p.announced {
			st.Peers = append(st.Peers, PeerStats{Peer: p.id, Addr: p.addr, Counters: c})
		}
	}
	st.Attempts = uint64(s.nextID - 1)
	return st
}

// Close implements Server: every client learns that the server closed
// the connection. Gone events for them remain to be read by Events.
func (s *MemServer) Close() error {
	if s.closed {
		return nil
	}
	for _, p := range s.peers {
		if p.attached && !s.abandoned {
			p.client.lose(&LostError{Addr: memAddr, Reason: ReasonClosed, Detail: "server closed"})
			s.detach(p, ReasonLocal, "server closed")
		}
	}
	s.closed = true
	return nil
}

// Abandon stops the server as a crashed process would: its clients are
// not told, and each reports ReasonTimeout once its own clock has passed
// the idle timeout after the latest now the server saw. The server
// accepts no further call but Close.
func (s *MemServer) Abandon() {
	if s.closed || s.abandoned {
		return
	}
	s.abandoned = true
	s.diedAt = s.now
}
