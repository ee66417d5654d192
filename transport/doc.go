// Package transport carries the game's datagrams: unreliable, unordered,
// at most MaxDatagram (1200) bytes each, between one server and its
// clients. The session talks to two interfaces, Server and Client, and two
// implementations stand behind them:
//
//   - In process (MemServer, MemClient): each client attached with
//     MemServer.Connect gets its own netsim.Pair, and every datagram
//     crosses it on the callers' virtual clock. No goroutines, no clocks:
//     the same seeds and the same calls give the same deliveries.
//   - QUIC (Listen, Dial, QUICServer, QUICClient): RFC 9221 datagrams over
//     github.com/quic-go/quic-go. TLS 1.3, the handshake's
//     anti-amplification, connection IDs, keep-alives and the idle timeout
//     are quic-go's; this package writes no crypto and parses no packet.
//
// One behavioural test suite runs against both.
//
// # Polling
//
// Nothing blocks the caller. Each call takes the caller's clock, now:
//
//	for each tick {
//		evs = srv.Events(evs[:0])          // peers connected, gone (with a Reason)
//		dgs = srv.Receive(now, dgs[:0])    // Datagram{Peer, Data}
//		... srv.Send(now, peer, msg) ...
//	}
//
// A server's events and datagrams form one ordered stream: a peer's
// Connected event precedes its datagrams and its Gone event follows them.
// Events stops at the first datagram and Receive at the first event, so
// the loop above never sees a datagram from a peer it was not told about,
// nor one after the peer is gone. Received data stays valid until the
// next Receive. PeerIDs start at 1 and are never reused: a client that
// reconnects is a new peer.
//
// The QUIC implementation runs quic-go's goroutines and a few of its own
// (one accepts, one counts non-QUIC packets, two per connection) and hands
// datagrams over through bounded queues of Options.QueueLen: a datagram
// that finds its queue full is dropped and counted, never waited for. A
// server's receive stream gives each connection its own share of
// Options.PeerQueueLen, so that one connection's flood drops only its own
// datagrams (DroppedRecvQueue), never another's.
// quic.Conn.SendDatagram itself can block (quic-go queues 32 frames and
// waits when congestion control holds them, as on a dead path), so each
// connection sends from its own goroutine.
//
// # Conditioning
//
// A client conditions its own traffic with netsim, in both
// implementations: what it sends passes through an outgoing link and what
// it receives through an incoming one, under conditions set at any time by
// SetConditions (for example a netsim preset, keys 1 to 7). Over QUIC the
// links run on the client's goroutine and on the now it passes: a datagram
// leaves when a later Send or Receive finds it due, and an arriving one
// enters the incoming link when Receive finds it, so the simulated delay
// adds to the real one. In process, the pair is the whole link, so the
// delays are exact. The server does not condition.
//
// # Faults
//
// A connection over which nothing is heard for Options.IdleTimeout (5 s)
// ends: the server reports the peer Gone with ReasonTimeout, and the
// client's Err says "transport: no answer from the server at ADDR for 5s".
// Keep-alives (every second) flow while both processes live, so this
// catches dead processes and cut paths; a client that is connected but
// sends no game traffic is for the game to time out (Server.Disconnect).
// A server that closes gives its clients "transport: the server at ADDR
// closed the connection: server closed". Abandon, on either in-process
// end or on a QUIC client, simulates a crashed process.
//
// # Pins
//
// Listen makes a self-signed ECDSA P-256 certificate at start. Its pin is
// the SHA-256 fingerprint of the certificate's DER bytes as 64 lowercase
// hex digits (QUICServer.Pin; ParsePin also takes uppercase and colons, as
// openssl prints them). Dial checks that fingerprint and nothing else
// about the certificate. Dial with insecure and no pin skips the check,
// and is refused unless the address is a loopback address; the caller
// should print InsecureWarning.
//
// # Counters
//
// Counters count one connection at one end: datagrams and bytes accepted
// by Send and returned by Receive, and the datagrams dropped by the
// client's conditioner (out and in), by size (over MaxDatagram) and by a
// full queue, with their bytes. ServerStats holds each live peer's
// counters, totals including gone peers, and Bogus: what reached the
// server's socket and was not a valid connection (packets that are not
// QUIC, malformed or of an unknown version, for no known connection,
// throttled by quic-go; handshakes that failed, such as a wrong ALPN or a
// wrong pin on the client's side; connections refused for lacking
// datagram support). quic-go counts none of it into a connection, so it
// disturbs none. Datagrams that decode badly, inputs for the wrong tick
// or cube, and floods are for the game to count.
package transport
