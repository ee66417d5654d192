package server

import (
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/transport"
)

// Host runs a Server over a transport: the loop of one server tick that an
// in-process session and `cube server` share, so that one code path is
// tested in both.
type Host struct {
	Server *Server
	Net    transport.Server
	// SnapshotHz is the rate of snapshots (and relays): one of
	// SnapshotRates. Change it with SetSnapshotRate.
	SnapshotHz int

	nextSnap time.Duration
	events   []transport.PeerEvent
	grams    []transport.Datagram
	left     []uint32
	send     func(conn uint32, b []byte)
	now      time.Duration
	// NeverJoined counts connections closed because no Hello of theirs
	// was accepted within JoinTimeouts times the server's Timeout
	// (refused, or silent).
	NeverJoined uint64
	unjoined    []waitingConn
	// SendErrors counts datagrams the transport would not send (a peer
	// gone meanwhile, a full queue): dropped, as a network would.
	SendErrors uint64

	// PerAddress caps the player slots the connections of one address
	// (its IP, whatever the port) may hold at once; a Hello beyond it is
	// refused as ServerFull. 0: no cap.
	PerAddress int
	// Budget bounds the time one turn spends on the datagrams received,
	// on Clock; when it runs out, the datagrams left are dropped and
	// counted in OverBudget. They are taken in turns, one of each
	// connection's at a time, so what is dropped is the tail of the
	// busiest connections; each connection's first Share datagrams of a
	// turn are always taken, so a client that sends at its pace loses
	// nothing even when the turn itself was slow (a preempted process, a
	// loaded machine). 0, or no Clock: no bound (in process, where the
	// session must not depend on the wall clock).
	Budget time.Duration
	Clock  func() time.Duration
	// OverBudget counts datagrams dropped because a turn's Budget ran out.
	OverBudget uint64
	// HellosLimited counts Hellos dropped, unanswered, because a
	// connection without a slot sent them faster than HelloRate.
	HellosLimited uint64
	// Unjoined counts datagrams other than Hellos from connections
	// without a slot, dropped unread.
	Unjoined uint64

	addrs map[uint32]string // each connection's address (its host part)
	order []int             // the datagrams of a turn, in the order they are taken
	rank  []int             // each datagram's place among its connection's
	count []int             // the counting sort's counts
	seen  map[transport.PeerID]int
}

// HelloRate is how many Hellos a second a connection without a slot may
// send, after a burst of HelloBurst: a client repeats its Hello 4 times a
// second until it is answered, so a real one is never limited.
const (
	HelloRate  = 8
	HelloBurst = 4
)

// Share is how many datagrams of each connection a turn takes whatever
// its Budget: a client sends an input and an ack a tick, so a turn that
// follows a stall of a few ticks still holds no more than this of a
// well-behaved client's. The Budget bounds the rest, a flood's tail; the
// time it cannot bound is Share datagrams times the connections, which
// the transport caps.
const Share = 8

// NewHost returns a host for s over net, sending snapshots (or relays)
// snapshotHz times a second: one of SnapshotRates.
func NewHost(s *Server, net transport.Server, snapshotHz int) (*Host, error) {
	if err := CheckSnapshotRate(snapshotHz); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	h := &Host{Server: s, Net: net, SnapshotHz: snapshotHz, addrs: make(map[uint32]string), seen: make(map[transport.PeerID]int)}
	h.send = h.sendTo
	s.MayJoin = h.mayJoin
	return h, nil
}

// SetSnapshotRate changes the rate of snapshots (and relays) to hz, one
// of SnapshotRates.
func (h *Host) SetSnapshotRate(hz int) error {
	if err := CheckSnapshotRate(hz); err != nil {
		return fmt.Errorf("server: %w", err)
	}
	h.SnapshotHz = hz
	return nil
}

// Turn is one tick of the server at time now: the connections that came
// and went, the datagrams that arrived, the tick due (a clocked server),
// what to send, and the clients that timed out.
func (h *Host) Turn(now time.Duration) error {
	if err := CheckSnapshotRate(h.SnapshotHz); err != nil {
		return fmt.Errorf("server: host turn: %w", err)
	}
	h.now = now
	h.events = h.Net.Events(h.events[:0])
	for _, e := range h.events {
		switch e.Kind {
		case transport.Connected:
			h.unjoined = append(h.unjoined, waitingConn{conn: uint32(e.Peer), since: now})
			h.addrs[uint32(e.Peer)] = hostOf(e.Addr)
		case transport.Gone:
			h.Server.Leave(uint32(e.Peer))
			h.forget(uint32(e.Peer))
			delete(h.addrs, uint32(e.Peer))
		}
	}
	h.grams = h.Net.Receive(now, h.grams[:0])
	if err := h.receive(now); err != nil {
		return err
	}
	if err := h.Server.Advance(now); err != nil {
		return err
	}
	due := now >= h.nextSnap
	if due {
		h.nextSnap += time.Second / time.Duration(h.SnapshotHz)
		if h.nextSnap <= now { // behind (a stall): do not send a burst to catch up
			h.nextSnap = now + time.Second/time.Duration(h.SnapshotHz)
		}
	}
	h.Server.Send(now, due, h.send)
	h.closeUnjoined(now)
	h.left = h.Server.TakeLeft(h.left[:0])
	for _, conn := range h.left {
		// A connection already gone needs no closing: the error says no more.
		_ = h.Net.Disconnect(transport.PeerID(conn), fmt.Sprintf("timed out: no progress (a new input, a newer ack) for %v", h.Server.Timeout))
	}
	return nil
}

// receive hands the turn's datagrams to the server, in turns across the
// connections, within the Budget.
func (h *Host) receive(now time.Duration) error {
	h.interleave()
	var start time.Duration
	bounded := h.Budget > 0 && h.Clock != nil
	if bounded {
		start = h.Clock()
	}
	for k, i := range h.order {
		// The clock is read every 4 datagrams beyond the shares: a
		// refusal costs less than reading it, a decoded Input of the
		// largest size many times more.
		if bounded && h.rank[i] >= Share && k%4 == 3 && h.Clock()-start > h.Budget {
			h.OverBudget += uint64(len(h.order) - k)
			break
		}
		d := h.grams[i]
		conn := uint32(d.Peer)
		joined := h.Server.Joined(conn)
		if !joined && !h.mayHello(now, conn, d.Data) {
			continue
		}
		if err := h.Server.Receive(now, conn, d.Data); err != nil && !errors.Is(err, protocol.ErrRejected) {
			return err
		}
		if !joined && h.Server.Joined(conn) {
			// Its Hello took a slot: a full transport keeps it.
			h.Net.Trust(d.Peer)
		}
	}
	return nil
}

// interleave sets h.order to the datagrams of the turn taken in turns:
// each connection's first, then each one's second, and so on, each
// connection's in the order they arrived.
func (h *Host) interleave() {
	clear(h.seen)
	h.rank = h.rank[:0]
	most := 0
	for _, d := range h.grams {
		r := h.seen[d.Peer]
		h.seen[d.Peer] = r + 1
		h.rank = append(h.rank, r)
		most = max(most, r+1)
	}
	// A stable counting sort by rank: ranks are small (at most a
	// connection's share of the transport's queue).
	h.count = append(h.count[:0], make([]int, most+1)...)
	for _, r := range h.rank {
		h.count[r+1]++
	}
	for i := 1; i < len(h.count); i++ {
		h.count[i] += h.count[i-1]
	}
	h.order = append(h.order[:0], make([]int, len(h.rank))...)
	for i, r := range h.rank {
		h.order[h.count[r]] = i
		h.count[r]++
	}
}

// mayHello reports whether a datagram from conn, which holds no slot, goes
// to the server: a Hello within the connection's rate. Anything else is
// dropped unread (the server would refuse it), and counted.
func (h *Host) mayHello(now time.Duration, conn uint32, b []byte) bool {
	if k, err := wire.Kind(b); err != nil || k != wire.KindHello {
		h.Unjoined++
		return false
	}
	for i := range h.unjoined {
		w := &h.unjoined[i]
		if w.conn != conn {
			continue
		}
		if !w.hellos.takeBurst(now, time.Second, HelloRate, HelloBurst) {
			h.HellosLimited++
			return false
		}
		return true
	}
	return true // not a connection the host saw arrive (a test's)
}

// mayJoin reports whether conn's address holds fewer slots than PerAddress.
func (h *Host) mayJoin(conn uint32) bool {
	if h.PerAddress <= 0 {
		return true
	}
	addr, ok := h.addrs[conn]
	if !ok {
		return true
	}
	n := 0
	for _, c := range h.Server.SlotConns() {
		if c != conn && h.addrs[c] == addr {
			n++
		}
	}
	return n < h.PerAddress
}

// hostOf returns the host part of addr ("127.0.0.1" of "127.0.0.1:5000"),
// or addr itself when it has no port.
func hostOf(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// waitingConn is a connection that has not joined yet.
type waitingConn struct {
	conn   uint32
	since  time.Duration
	hellos bucket
}

// forget drops conn from the connections waiting to join.
func (h *Host) forget(conn uint32) {
	for i, w := range h.unjoined {
		if w.conn == conn {
			h.unjoined = append(h.unjoined[:i], h.unjoined[i+1:]...)
			return
		}
	}
}

// JoinTimeouts is how many of the server's Timeouts a connection has to
// join: long enough for a Hello to get through the outage preset's bursts
// of loss, short enough that connections that never play do not pile up.
const JoinTimeouts = 3

// closeUnjoined closes the connections that have not joined in time (after
// any refusal was sent), so that connections that never play do not hold
// the server's resources.
func (h *Host) closeUnjoined(now time.Duration) {
	keep := h.unjoined[:0]
	limit := JoinTimeouts * h.Server.Timeout
	for _, w := range h.unjoined {
		switch {
		case h.Server.Joined(w.conn):
			// playing: its silence is the server's Timeout's business
		case limit > 0 && now-w.since > limit:
			h.NeverJoined++
			_ = h.Net.Disconnect(transport.PeerID(w.conn), fmt.Sprintf("no Hello accepted within %v", limit))
		default:
			keep = append(keep, w)
		}
	}
	h.unjoined = keep
}

// sendTo sends one datagram; a peer gone meanwhile is not an error.
func (h *Host) sendTo(conn uint32, b []byte) {
	if err := h.Net.Send(h.now, transport.PeerID(conn), b); err != nil {
		h.SendErrors++
	}
}
