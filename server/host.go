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
		if e.Kind == transport.Gone {
			h.Server.Leave(uint32(e.Peer))
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
	h.left = h.Server.TakeLeft(h.left[:0])
	for _, conn := range h.left {
		// A connection already gone needs no closing: the error says no more.
		_ = h.Net.Disconnect(transport.PeerID(conn), fmt.Sprintf("timed out: nothing heard for %v", h.Server.Timeout))
	}
	return nil
}

// sendTo sends one datagram; a peer gone meanwhile is not an error.
func (h *Host) sendTo(conn uint32, b []byte) {
	if err := h.Net.Send(h.now, transport.PeerID(conn), b); err != nil {
		h.SendErrors++
	}
}
