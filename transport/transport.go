package transport

import (
	"time"

	"github.com/cubelab/cube/netsim"
)

// MaxDatagram is the largest payload Send accepts, in bytes. It fits in
// one QUIC packet on any path that carries IPv6's minimum MTU of 1280.
const MaxDatagram = 1200

// PeerID names one connection on a server. IDs start at 1 and grow in the
// order connections are reported; a client that reconnects gets a new ID.
// 0 is never a valid peer.
type PeerID uint32

// Datagram is a payload received by a server.
type Datagram struct {
	Peer PeerID
	// Data is the transport's own copy of the payload; it stays valid
	// until the next call to Receive on the same server.
	Data []byte
}

// EventKind says what happened to a peer.
type EventKind uint8

// The kinds of peer events.
const (
	// Connected: the peer completed the handshake. Its datagrams follow.
	Connected EventKind = iota + 1
	// Gone: the peer's connection is over. Nothing more comes from it and
	// Send to it fails.
	Gone
)

// String returns "connected" or "gone".
func (k EventKind) String() string {
	switch k {
	case Connected:
		return "connected"
	case Gone:
		return "gone"
	}
	return "unknown event"
}

// Reason says why a connection ended.
type Reason uint8

// The reasons a connection ends.
const (
	// ReasonNone: the connection has not ended.
	ReasonNone Reason = iota
	// ReasonClosed: the other side closed the connection.
	ReasonClosed
	// ReasonTimeout: nothing was heard from the other side for the idle
	// timeout (a crashed process, a cut cable).
	ReasonTimeout
	// ReasonLocal: this side closed it (Server.Disconnect, Server.Close,
	// Client.Close).
	ReasonLocal
	// ReasonError: a protocol or network error ended it.
	ReasonError
)

// String returns a short word for logs.
func (r Reason) String() string {
	switch r {
	case ReasonNone:
		return "none"
	case ReasonClosed:
		return "closed by peer"
	case ReasonTimeout:
		return "timed out"
	case ReasonLocal:
		return "closed here"
	case ReasonError:
		return "error"
	}
	return "unknown reason"
}

// PeerEvent reports a peer that connected or went away.
type PeerEvent struct {
	Peer   PeerID
	Kind   EventKind
	Addr   string // the peer's address: "127.0.0.1:53211", or "mem:3" in process
	Reason Reason // why it went away (Gone only)
	Detail string // the close message or error text, when there is one (Gone only)
	// Counters are the connection's final counters (Gone only), such as
	// the datagrams of its own that its share of the receive queue
	// dropped.
	Counters Counters
}

// Server is the server end: many peers, one socket. It is poll-based: no
// call blocks, and the caller's game loop drives it.
//
// Events and datagrams form one ordered stream per server: a peer's
// Connected event comes before its first datagram, and its Gone event
// after its last. Events returns the events at the head of the stream up
// to the first datagram, and Receive the datagrams at the head up to the
// first event, so calling Events then Receive once per tick sees
// everything in order, and a datagram never arrives from a peer the
// caller has not been told about.
//
// A Server is meant to be used from one goroutine, the game loop's. The
// QUIC server's Close may also be called from another; the in-process
// server is not safe for concurrent use at all.
type Server interface {
	// Receive appends the datagrams that have arrived by now to dst and
	// returns it. Each Data stays valid until the next Receive.
	Receive(now time.Duration, dst []Datagram) []Datagram
	// Events appends the peer events at the head of the stream to dst and
	// returns it.
	Events(dst []PeerEvent) []PeerEvent
	// Send sends b to one peer at time now; the caller may reuse b at
	// once. A datagram larger than MaxDatagram is refused with an error
	// matching ErrTooLarge; a peer not reported connected, or gone, is
	// refused with ErrUnknownPeer. A datagram that finds a full queue is
	// dropped and counted, not refused.
	Send(now time.Duration, to PeerID, b []byte) error
	// Disconnect closes one peer's connection, telling the peer why. Its
	// Gone event (ReasonLocal) follows on the stream.
	Disconnect(to PeerID, reason string) error
	// Trust tells the server that peer id has proven itself (its Hello
	// was accepted: it holds a player slot). A QUIC server holding
	// MaxConns connections makes room for a new one by closing one it was
	// not told to trust, never one it was (see Options.MaxConns). Unknown
	// or gone peers are ignored.
	Trust(id PeerID)
	// Stats returns the counters.
	Stats() ServerStats
	// Close closes every connection and stops the server. It is safe to
	// call more than once.
	Close() error
}

// Client is the client end: one connection to a server. Like Server it is
// poll-based and meant for one goroutine (QUIC's Close aside).
//
// A client conditions its own traffic with netsim: what it sends goes
// through an outgoing link and what arrives through an incoming one,
// under conditions it may change at any time (SetConditions). The
// conditioner runs on the caller's clock, the now passed to Send and
// Receive: both calls advance it.
type Client interface {
	// Receive appends the datagrams due by now to dst and returns it.
	// Each slice stays valid until the next Receive. Once Err is not
	// nil, nothing more arrives.
	Receive(now time.Duration, dst [][]byte) [][]byte
	// Send sends b to the server at time now; the caller may reuse b at
	// once. A datagram larger than MaxDatagram is refused with
	// ErrTooLarge; once the connection is gone Send returns Err().
	Send(now time.Duration, b []byte) error
	// SetConditions sets the conditions of the outgoing and incoming
	// links for datagrams sent or arriving from now on. Invalid
	// conditions are refused and the old ones kept.
	SetConditions(out, in netsim.Conditions) error
	// Err is nil while the connection lives, then says why it ended in
	// one line; errors.As with *LostError gives the Reason. After Close
	// it matches ErrClosed.
	Err() error
	// Stats returns the connection's counters.
	Stats() Counters
	// Close closes the connection. It is safe to call more than once.
	Close() error
}

// Both implementations implement the interfaces.
var (
	_ Server = (*MemServer)(nil)
	_ Client = (*MemClient)(nil)
	_ Server = (*QUICServer)(nil)
	_ Client = (*QUICClient)(nil)
)
