package transport

import (
	"context"
	"testing"
	"time"
)

// The cost of one 100-byte datagram through Send and Receive. In process
// that is the whole cost; over QUIC on loopback it includes quic-go's
// encryption, the kernel's UDP path and the hand-overs between
// goroutines, on both ends (ns/op is throughput with 32 datagrams in
// flight, allocs/op counts every goroutine's).

const benchSize = 100

func BenchmarkMemClientToServer(b *testing.B) {
	srv, _ := NewMemServer(nil)
	c, _ := srv.Connect(1)
	srv.Events(nil)
	payload := make([]byte, benchSize)
	var dgs []Datagram
	var now time.Duration
	b.SetBytes(benchSize)
	b.ReportAllocs()
	for b.Loop() {
		now += time.Microsecond
		c.Send(now, payload)
		dgs = srv.Receive(now, dgs[:0])
		if len(dgs) != 1 {
			b.Fatalf("received %d datagrams", len(dgs))
		}
	}
}

func BenchmarkMemServerToClient(b *testing.B) {
	srv, _ := NewMemServer(nil)
	c, _ := srv.Connect(1)
	p := srv.Events(nil)[0].Peer
	payload := make([]byte, benchSize)
	var bufs [][]byte
	var now time.Duration
	b.SetBytes(benchSize)
	b.ReportAllocs()
	for b.Loop() {
		now += time.Microsecond
		srv.Send(now, p, payload)
		bufs = c.Receive(now, bufs[:0])
		if len(bufs) != 1 {
			b.Fatalf("received %d datagrams", len(bufs))
		}
	}
}

// quicPair starts a server and a connected client on loopback.
func quicPair(b *testing.B) (*QUICServer, *QUICClient, PeerID) {
	srv, err := Listen("127.0.0.1:0", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	c, err := Dial(context.Background(), srv.BoundAddr(), srv.Pin(), false, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, ev := range srv.Events(nil) {
			if ev.Kind == Connected {
				return srv, c, ev.Peer
			}
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatal("no Connected event")
	return nil, nil, 0
}

// window keeps at most 32 datagrams in flight: send one, then receive
// until the window has room.
func window(b *testing.B, send func(), receive func() int) {
	const w = 32
	sent, got := 0, 0
	b.SetBytes(benchSize)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		send()
		sent++
		stall := time.Now()
		for sent-got >= w {
			if n := receive(); n > 0 {
				got += n
				stall = time.Now()
				continue
			}
			if time.Since(stall) > 2*time.Second {
				b.Fatalf("%d datagrams lost on loopback", sent-got)
			}
			time.Sleep(20 * time.Microsecond)
		}
	}
}

func BenchmarkQUICClientToServer(b *testing.B) {
	srv, c, _ := quicPair(b)
	payload := make([]byte, benchSize)
	var dgs []Datagram
	window(b,
		func() { c.Send(0, payload) },
		func() int { dgs = srv.Receive(0, dgs[:0]); return len(dgs) })
}

func BenchmarkQUICServerToClient(b *testing.B) {
	srv, c, p := quicPair(b)
	payload := make([]byte, benchSize)
	var bufs [][]byte
	window(b,
		func() { srv.Send(0, p, payload) },
		func() int { bufs = c.Receive(0, bufs[:0]); return len(bufs) })
}

// The server loop's own share of a QUIC datagram: the hand-over from a
// connection's goroutine through the stream to Receive.
func BenchmarkStreamHandOver(b *testing.B) {
	s := newStream(DefaultQueueLen)
	var c counters
	payload := make([]byte, benchSize)
	var dgs []Datagram
	b.SetBytes(benchSize)
	b.ReportAllocs()
	for b.Loop() {
		s.pushDatagram(1, &c, payload)
		dgs = s.takeDatagrams(dgs[:0])
	}
}
