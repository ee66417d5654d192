package transport

import (
	"fmt"
	"time"
)

// Defaults for Options fields left at zero.
const (
	DefaultIdleTimeout      = 5 * time.Second
	DefaultKeepAlive        = 1 * time.Second
	DefaultHandshakeTimeout = 5 * time.Second
	DefaultQueueLen         = 1024
	DefaultPeerQueueLen     = 64
	DefaultMaxConns         = 64
	DefaultMaxHandshakes    = 128
	DefaultRetryAbove       = 8
	DefaultHandshakesPerSec = 0.5
)

// Options tune a server or client. The zero value, or nil where a
// function takes a pointer, means the defaults.
type Options struct {
	// IdleTimeout ends a connection over which nothing at all has been
	// heard for this long (QUIC's max_idle_timeout, the smaller of both
	// ends' wins). Keep-alives flow while both processes live, so it
	// detects dead processes and broken paths, not quiet players.
	// Default 5 s. In process it is measured on the caller's clock, and
	// only Abandon triggers it.
	IdleTimeout time.Duration
	// KeepAlive is the period of QUIC keep-alive packets; quic-go caps it
	// at half the idle timeout. Default 1 s. Unused in process.
	KeepAlive time.Duration
	// HandshakeTimeout bounds a handshake: Dial's on a client, and on a
	// server each connection attempt's, so that a bogus attempt is given
	// up (and counted) after it. Default 5 s. Unused in process.
	HandshakeTimeout time.Duration
	// QueueLen bounds the datagrams waiting in each queue between the
	// network and the caller: a server's receive stream, and each
	// connection's send queue and a client's receive queue. A datagram
	// that finds its queue full is dropped and counted. Default 1024.
	QueueLen int
	// PeerQueueLen bounds the datagrams of one connection waiting in a
	// server's receive stream (at most QueueLen too): a connection that
	// sends faster than the server takes fills its own share, and its
	// further datagrams are dropped and counted in its DroppedRecvQueue,
	// while every other connection keeps its own. Default 64, a second of
	// a client's datagrams at 64 Hz.
	PeerQueueLen int
	// MaxConns bounds a QUIC server's open connections, joined or not.
	// When they are all open, a new connection takes the place of one the
	// caller has not trusted (Server.Trust: it has not joined), the oldest
	// of the address that holds the most such, which is closed and
	// counted as evicted; when every one is trusted, the new one is closed
	// at once and counted as refused. So connections that never join,
	// from however many hosts, cannot keep a player out. Default 64.
	// Unused in process.
	MaxConns int
	// MaxConnsPerAddr bounds a QUIC server's open connections from one
	// address (its IP, whatever the port): one more is closed at once and
	// counted as refused, so that one host re-dialling cannot take every
	// connection. 0: MaxConns. Unused in process.
	MaxConnsPerAddr int
	// MaxHandshakes bounds a QUIC server's handshakes in flight (begun,
	// neither complete nor failed): one more is refused before any
	// cryptography (CONNECTION_REFUSED) and counted in Bogus.RefusedBusy.
	// A handshake that never completes holds about 30 KB until
	// HandshakeTimeout (twice it at most), so this bounds what half-open
	// handshakes can take: 128 of them, about 4 MB. Default 128. Unused
	// in process.
	MaxHandshakes int
	// RetryAbove: once this many handshakes are in flight, a QUIC server
	// asks each new attempt to prove its address first (a Retry, RFC 9000
	// 8.1.2: one more round trip), so that attempts from spoofed addresses
	// or from clients that never answer cost no state. A value above
	// MaxHandshakes never asks. Default 8. Unused in process.
	RetryAbove int
	// HandshakesPerSec bounds the handshakes one address (its IP) may
	// begin on a QUIC server, per second, after a burst of
	// HandshakeBurst: one more is refused before any cryptography and
	// counted in Bogus.RefusedAddr. A handshake costs the server a few
	// milliseconds of CPU, so hosts that dial again and again
	// (connections closed as soon as they open, evicted, or refused)
	// would otherwise take the tick's CPU; a player dials once. Default
	// 0.5. Unused in process.
	HandshakesPerSec float64
	// LocalAddr is the UDP address a QUIC client's socket binds to ("" or
	// nil: any). Tests and the attack tool use another loopback address,
	// such as 127.0.0.2, to play a second host. Unused on a server.
	LocalAddr string
	// Seed seeds a QUIC client's netsim conditioner; 0 picks one at
	// random. In process, MemServer.Connect takes the seed instead.
	Seed uint64
}

// withDefaults returns o with zero fields set to their defaults, or an
// error naming a negative one.
func (o *Options) withDefaults() (Options, error) {
	var r Options
	if o != nil {
		r = *o
	}
	if r.IdleTimeout < 0 || r.KeepAlive < 0 || r.HandshakeTimeout < 0 || r.QueueLen < 0 || r.PeerQueueLen < 0 || r.MaxConns < 0 || r.MaxConnsPerAddr < 0 || r.MaxHandshakes < 0 || r.RetryAbove < 0 || !(r.HandshakesPerSec >= 0) {
		return r, fmt.Errorf("transport: negative option in %+v", r)
	}
	if r.IdleTimeout == 0 {
		r.IdleTimeout = DefaultIdleTimeout
	}
	if r.KeepAlive == 0 {
		r.KeepAlive = DefaultKeepAlive
	}
	if r.HandshakeTimeout == 0 {
		r.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if r.QueueLen == 0 {
		r.QueueLen = DefaultQueueLen
	}
	if r.PeerQueueLen == 0 {
		r.PeerQueueLen = DefaultPeerQueueLen
	}
	if r.MaxConns == 0 {
		r.MaxConns = DefaultMaxConns
	}
	if r.MaxHandshakes == 0 {
		r.MaxHandshakes = DefaultMaxHandshakes
	}
	if r.RetryAbove == 0 {
		r.RetryAbove = DefaultRetryAbove
	}
	if r.HandshakesPerSec == 0 {
		r.HandshakesPerSec = DefaultHandshakesPerSec
	}
	if r.MaxConnsPerAddr == 0 {
		r.MaxConnsPerAddr = r.MaxConns
	}
	return r, nil
}
