package server

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/transport"
	"github.com/cubelab/cube/wire"
)

// Host runs a Server over a transport: the loop of one server tick that an
// in-process session and `cube server` share, so that one code path is
// tested in both.
type Host struct {
	Server *Server
	Net    transport.Server
	// SnapshotHz is the rate of snapshots (and relays): one of 64, 32,
	// 16, 8, 4, 2, 1.
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
}

// NewHost returns a host for s over net.
func NewHost(s *Server, net transport.Server, snapshotHz int) *Host {
	h := &Host{Server: s, Net: net, SnapshotHz: snapshotHz}
	h.send = h.sendTo
	return h
}

// Turn is one tick of the server at time now: the connections that came
// and went, the datagrams that arrived, the tick due (a clocked server),
// what to send, and the clients that timed out.
func (h *Host) Turn(now time.Duration) error {
	h.now = now
	h.events = h.Net.Events(h.events[:0])
	for _, e := range h.events {
		switch e.Kind {
		case transport.Connected:
			h.unjoined = append(h.unjoined, waitingConn{conn: uint32(e.Peer), since: now})
		case transport.Gone:
			h.Server.Leave(uint32(e.Peer))
			h.forget(uint32(e.Peer))
		}
	}
	h.grams = h.Net.Receive(now, h.grams[:0])
	for _, d := range h.grams {
		if err := h.Server.Receive(now, uint32(d.Peer), d.Data); err != nil && !errors.Is(err, wire.ErrRejected) {
			return err
		}
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
		_ = h.Net.Disconnect(transport.PeerID(conn), fmt.Sprintf("timed out: nothing heard for %v", h.Server.Timeout))
	}
	return nil
}

// waitingConn is a connection that has not joined yet.
type waitingConn struct {
	conn  uint32
	since time.Duration
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
