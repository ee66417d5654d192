package transport

import "sync"

// stream is a server's ordered queue of peer events and datagrams. Network
// goroutines (or the in-process server itself) push; the caller's
// goroutine takes events and datagrams from the head, each kind stopping
// at the first entry of the other kind (see Server).
//
// Datagrams are bounded per peer: each connection may have at most limit
// of its own waiting, so that one connection flooding the server fills its
// own share and never crowds out another's datagrams (the total is at most
// limit times the open connections). They are copied into buffers the
// stream owns and reuses; events are never dropped, and there are at most
// two per connection. The zero value is not usable; see newStream.
type stream struct {
	mu     sync.Mutex
	ring   []entry // circular, len(ring) is the capacity
	head   int     // index of the oldest entry
	n      int     // entries queued
	dgrams int     // datagram entries queued
	limit  int     // bound on each peer's datagrams queued

	free [][]byte // buffers ready for reuse
	lent [][]byte // buffers handed out by the last takeDatagrams
}

// entry is an event (ev.Kind != 0) or a datagram from one peer.
type entry struct {
	ev   PeerEvent
	peer PeerID
	data []byte
	c    *counters // the peer's counters, for Received
}

func newStream(limit int) *stream {
	return &stream{ring: make([]entry, 16), limit: limit}
}

// grow doubles the ring, keeping the entries in order. Called with mu held.
func (s *stream) grow() {
	r := make([]entry, 2*len(s.ring))
	for i := range s.n {
		r[i] = s.ring[(s.head+i)%len(s.ring)]
	}
	s.ring, s.head = r, 0
}

// put appends e. Called with mu held.
func (s *stream) put(e entry) {
	if s.n == len(s.ring) {
		s.grow()
	}
	s.ring[(s.head+s.n)%len(s.ring)] = e
	s.n++
}

// pushEvent appends a peer event.
func (s *stream) pushEvent(ev PeerEvent) {
	s.mu.Lock()
	s.put(entry{ev: ev})
	s.mu.Unlock()
}

// pushDatagram appends a copy of data from peer, whose counters are c, and
// reports whether it was queued; it is not when the stream already holds
// limit datagrams of that peer.
func (s *stream) pushDatagram(peer PeerID, c *counters, data []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.queued >= s.limit {
		return false
	}
	c.queued++
	var b []byte
	if k := len(s.free); k > 0 {
		b = s.free[k-1]
		s.free = s.free[:k-1]
	} else {
		b = make([]byte, 0, MaxDatagram)
	}
	s.put(entry{peer: peer, data: append(b[:0], data...), c: c})
	s.dgrams++
	return true
}

// takeEvents appends the events at the head, up to the first datagram.
func (s *stream) takeEvents(dst []PeerEvent) []PeerEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.n > 0 {
		e := &s.ring[s.head]
		if e.ev.Kind == 0 {
			break
		}
		dst = append(dst, e.ev)
		s.pop()
	}
	return dst
}

// takeDatagrams appends the datagrams at the head, up to the first event,
// counting them as received. The buffers handed out by the previous call
// are taken back for reuse.
func (s *stream) takeDatagrams(dst []Datagram) []Datagram {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free = append(s.free, s.lent...)
	clear(s.lent)
	s.lent = s.lent[:0]
	for s.n > 0 {
		e := &s.ring[s.head]
		if e.ev.Kind != 0 {
			break
		}
		dst = append(dst, Datagram{Peer: e.peer, Data: e.data})
		s.lent = append(s.lent, e.data)
		e.c.countReceived(len(e.data))
		e.c.queued--
		s.dgrams--
		s.pop()
	}
	return dst
}

// pop removes the head entry. Called with mu held.
func (s *stream) pop() {
	s.ring[s.head] = entry{}
	s.head = (s.head + 1) % len(s.ring)
	s.n--
}
