package transport

import "sync/atomic"

// Counters count one connection's datagrams, as seen by one end. Sent and
// Received are what the caller passed to Send and got from Receive; the
// Dropped fields say where the others went. Conditioning belongs to the
// client, so its drops are counted only in the client's Counters.
type Counters struct {
	Sent          uint64 // datagrams accepted by Send
	SentBytes     uint64 // their payload bytes
	Received      uint64 // datagrams returned by Receive (netsim duplicates included)
	ReceivedBytes uint64 // their payload bytes

	// DroppedOut and DroppedIn: datagrams dropped by the client's netsim
	// conditioner, outgoing and incoming (loss, or its bandwidth queue).
	DroppedOut uint64
	DroppedIn  uint64
	// DroppedSize: datagrams refused for their size, by Send (over
	// MaxDatagram) or by QUIC (over what the path carries at the moment,
	// which can only happen on paths below IPv6's minimum MTU).
	DroppedSize uint64
	// DroppedSendQueue: datagrams given to Send and dropped because the
	// bounded queue between the caller and the network was full
	// (Options.QueueLen). Nothing ever blocks the caller instead.
	DroppedSendQueue uint64
	// DroppedRecvQueue: datagrams that arrived and were dropped because
	// this connection's share of the receive queue was full (a client's
	// Options.QueueLen; on a server, Options.PeerQueueLen of its stream).
	DroppedRecvQueue uint64
	// DroppedBytes: payload bytes of every dropped datagram above.
	DroppedBytes uint64
}

// add adds o to c.
func (c *Counters) add(o Counters) {
	c.Sent += o.Sent
	c.SentBytes += o.SentBytes
	c.Received += o.Received
	c.ReceivedBytes += o.ReceivedBytes
	c.DroppedOut += o.DroppedOut
	c.DroppedIn += o.DroppedIn
	c.DroppedSize += o.DroppedSize
	c.DroppedSendQueue += o.DroppedSendQueue
	c.DroppedRecvQueue += o.DroppedRecvQueue
	c.DroppedBytes += o.DroppedBytes
}

// PeerStats are one live peer's counters on a server.
type PeerStats struct {
	Peer PeerID
	Addr string
	Counters
}

// ServerStats are a server's counters.
type ServerStats struct {
	// Totals sums the counters of every peer, gone ones included.
	Totals Counters
	// Peers lists the peers reported connected and not yet gone, by ID.
	Peers []PeerStats
	// Connected counts the peers ever reported connected; Gone those
	// reported gone.
	Connected, Gone uint64
	// Attempts counts the connection attempts that started a handshake.
	Attempts uint64
	// Handshaking is the handshakes in flight now (Options.MaxHandshakes).
	Handshaking uint64
	// Bogus counts the traffic that reached the server but was not part
	// of a valid connection. Always zero in process.
	Bogus Bogus
}

// Bogus counts traffic that reached a server's socket and was not a valid
// QUIC connection or handshake. None of it reaches a connection, so none
// of it disturbs one.
type Bogus struct {
	// NotQUIC: UDP datagrams that are not QUIC packets at all (their first
	// two bits are 0).
	NotQUIC uint64
	// Malformed: QUIC-looking packets dropped before reaching a
	// connection: an unparsable header, an unexpected packet type, an
	// Initial too small or that does not decrypt, an unsupported version.
	Malformed uint64
	// UnknownConn: short-header packets for no known connection.
	UnknownConn uint64
	// Throttled: packets dropped because quic-go's queue for new or
	// unknown traffic was full (its denial-of-service protection).
	Throttled uint64
	// HandshakeFailed: connection attempts whose handshake did not
	// complete: wrong ALPN, TLS failure, abandoned or timed out.
	HandshakeFailed uint64
	// Refused: completed handshakes the server refused: the client does
	// not support datagrams, or the server holds MaxConns connections
	// that are all trusted (Server.Trust).
	Refused uint64
	// Evicted: connections not trusted yet that a full server closed to
	// make room for a new one (see Options.MaxConns). Not in Total: the
	// new connection was taken.
	Evicted uint64
	// RefusedAddr: connection attempts refused before their handshake,
	// their address having MaxConnsPerAddr connections already.
	RefusedAddr uint64
	// RefusedBusy: connection attempts refused before their handshake,
	// MaxHandshakes handshakes being in flight.
	RefusedBusy uint64
	// Retried: connection attempts asked to prove their address first
	// (a QUIC Retry, Options.RetryAbove handshakes being in flight). One
	// that does comes back as a new attempt; one that never does (a
	// spoofed address, a half-open flood) leaves no other trace. Not in
	// Total: a real client under load is asked too.
	Retried uint64
}

// Total is the sum of the bogus counters.
func (b Bogus) Total() uint64 {
	return b.NotQUIC + b.Malformed + b.UnknownConn + b.Throttled + b.HandshakeFailed + b.Refused + b.RefusedAddr + b.RefusedBusy
}

// counters are the live, concurrently updated form of Counters.
type counters struct {
	sent, sentBytes, received, receivedBytes atomic.Uint64
	droppedOut, droppedIn                    atomic.Uint64
	droppedSize, droppedBytes                atomic.Uint64
	droppedSendQueue, droppedRecvQueue       atomic.Uint64

	// queued is how many of the connection's datagrams wait in a server's
	// stream; guarded by the stream's mutex.
	queued int
}

func (c *counters) countSent(n int) {
	c.sent.Add(1)
	c.sentBytes.Add(uint64(n))
}

func (c *counters) countReceived(n int) {
	c.received.Add(1)
	c.receivedBytes.Add(uint64(n))
}

func (c *counters) countSize(n int) {
	c.droppedSize.Add(1)
	c.droppedBytes.Add(uint64(n))
}

func (c *counters) countSendQueue(n int) {
	c.droppedSendQueue.Add(1)
	c.droppedBytes.Add(uint64(n))
}

func (c *counters) countRecvQueue(n int) {
	c.droppedRecvQueue.Add(1)
	c.droppedBytes.Add(uint64(n))
}

// snapshot reads the counters.
func (c *counters) snapshot() Counters {
	return Counters{
		Sent:             c.sent.Load(),
		SentBytes:        c.sentBytes.Load(),
		Received:         c.received.Load(),
		ReceivedBytes:    c.receivedBytes.Load(),
		DroppedOut:       c.droppedOut.Load(),
		DroppedIn:        c.droppedIn.Load(),
		DroppedSize:      c.droppedSize.Load(),
		DroppedSendQueue: c.droppedSendQueue.Load(),
		DroppedRecvQueue: c.droppedRecvQueue.Load(),
		DroppedBytes:     c.droppedBytes.Load(),
	}
}
