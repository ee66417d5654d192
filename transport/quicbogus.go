package transport

import (
	"context"
	"sync/atomic"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
)

// bogusCounters are the live form of Bogus.
type bogusCounters struct {
	notQUIC, malformed, unknownConn, throttled atomic.Uint64
	handshakeFailed, refused, refusedAddr      atomic.Uint64
	evicted, refusedBusy, retried              atomic.Uint64
}

func (b *bogusCounters) snapshot() Bogus {
	return Bogus{
		NotQUIC:         b.notQUIC.Load(),
		Malformed:       b.malformed.Load(),
		UnknownConn:     b.unknownConn.Load(),
		Throttled:       b.throttled.Load(),
		HandshakeFailed: b.handshakeFailed.Load(),
		Refused:         b.refused.Load(),
		RefusedAddr:     b.refusedAddr.Load(),
		Evicted:         b.evicted.Load(),
		RefusedBusy:     b.refusedBusy.Load(),
		Retried:         b.retried.Load(),
	}
}

// dropTracer is the quic.Transport's tracer: quic-go reports there the
// packets it drops before they reach any connection, and this counts
// them. It keeps no other event. Safe for concurrent use.
type dropTracer struct{ b *bogusCounters }

var _ qlogwriter.Recorder = dropTracer{}

// RecordEvent counts dropped packets by their reason.
func (t dropTracer) RecordEvent(ev qlogwriter.Event) {
	switch e := ev.(type) {
	case qlog.PacketDropped:
		switch e.Trigger {
		case qlog.PacketDropUnknownConnectionID:
			t.b.unknownConn.Add(1)
		case qlog.PacketDropDOSPrevention:
			t.b.throttled.Add(1)
		default:
			t.b.malformed.Add(1)
		}
	case qlog.VersionNegotiationSent:
		// A long-header packet of a version we do not speak.
		t.b.malformed.Add(1)
	}
}

// Close implements qlogwriter.Recorder.
func (dropTracer) Close() error { return nil }

// countNotQUIC reads the packets quic-go sets aside as not QUIC (first two
// bits 0) and counts them, until ctx is done or the transport closes.
// Reading them is also what keeps them from piling up: quic-go queues at
// most 32 and drops (and traces) the rest.
func countNotQUIC(ctx context.Context, tr *quic.Transport, b *bogusCounters) {
	buf := make([]byte, 2048)
	for {
		if _, _, err := tr.ReadNonQUICPacket(ctx, buf); err != nil {
			return
		}
		b.notQUIC.Add(1)
	}
}

// attempt follows one connection attempt from the moment quic-go starts
// its handshake (Transport.ConnContext) to its end: an attempt that ends
// before the server accepted it failed its handshake.
type attempt struct{ accepted atomic.Bool }

type attemptKey struct{}

// trackAttempt is a Transport.ConnContext that counts attempts and failed
// handshakes.
func trackAttempt(attempts *atomic.Uint64, b *bogusCounters) func(context.Context, *quic.ClientInfo) (context.Context, error) {
	return func(ctx context.Context, _ *quic.ClientInfo) (context.Context, error) {
		attempts.Add(1)
		a := &attempt{}
		ctx = context.WithValue(ctx, attemptKey{}, a)
		context.AfterFunc(ctx, func() {
			if !a.accepted.Load() {
				b.handshakeFailed.Add(1)
			}
		})
		return ctx, nil
	}
}

// markAccepted records that conn's handshake completed and the server took
// it.
func markAccepted(conn *quic.Conn) {
	if a, ok := conn.Context().Value(attemptKey{}).(*attempt); ok {
		a.accepted.Store(true)
	}
}
