package transport

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// firstOnly is a client socket for a half-open handshake: it sends the
// first datagram (the Initial with the ClientHello) and nothing after,
// and never hands anything it receives to QUIC.
type firstOnly struct {
	net.PacketConn // a *net.UDPConn, behind the interface so that quic-go does not use its batch calls
	mu             sync.Mutex
	sent           bool
}

func (f *firstOnly) WriteTo(b []byte, a net.Addr) (int, error) {
	f.mu.Lock()
	first := !f.sent
	f.sent = true
	f.mu.Unlock()
	if !first {
		return len(b), nil
	}
	return f.PacketConn.WriteTo(b, a)
}

func (f *firstOnly) ReadFrom(b []byte) (int, net.Addr, error) {
	for {
		if _, _, err := f.PacketConn.ReadFrom(b); err != nil {
			return 0, nil, err
		}
	}
}

// halfOpen starts n handshakes from local (a loopback IP) that never
// complete, and returns when their Initials are sent.
func halfOpen(t *testing.T, srv *QUICServer, local string, n int) {
	t.Helper()
	to, err := net.ResolveUDPAddr("udp", srv.BoundAddr())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		u, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.ParseIP(local)})
		if err != nil {
			t.Fatal(err)
		}
		f := &firstOnly{PacketConn: u}
		tr := &quic.Transport{Conn: f}
		t.Cleanup(func() { tr.Close(); u.Close() })
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancel()
			_, _ = tr.Dial(ctx, to, quicClientConfig(ALPN), &quic.Config{EnableDatagrams: true})
		}()
	}
	wg.Wait()
}

// TestHalfOpenHandshakesNeedAnAddress: handshakes that never complete,
// from many addresses, hold no server state beyond the first few: once
// RetryAbove are in flight, a new attempt must first prove its address
// (QUIC Retry), which a half-open one never does. A real client, which
// does, still connects meanwhile.
func TestHalfOpenHandshakesNeedAnAddress(t *testing.T) {
	srv := listen(t, nil)
	for host := 2; host <= 9; host++ {
		halfOpen(t, srv, "127.0.0."+string(rune('0'+host)), 5)
	}
	if a := srv.Stats().Attempts; a > DefaultRetryAbove {
		t.Fatalf("%d handshakes started by 40 half-open attempts, want at most %d", a, DefaultRetryAbove)
	}
	c, err := dial(t, srv, srv.Pin(), false, nil)
	if err != nil {
		t.Fatalf("a real client during the attack: %v", err)
	}
	exchange(t, srv, c, connected(t, srv), "during the attack")
}

// TestMaxHandshakesBoundsTheHalfOpen: without Retry (RetryAbove beyond
// MaxHandshakes), at most MaxHandshakes handshakes are in flight; the
// attempts beyond are refused and counted.
func TestMaxHandshakesBoundsTheHalfOpen(t *testing.T) {
	srv := listen(t, &Options{MaxHandshakes: 4, RetryAbove: 1000, HandshakeTimeout: time.Second, HandshakesPerSec: 1000})
	halfOpen(t, srv, "127.0.0.2", 10)
	st := srv.Stats()
	if st.Handshaking != 4 || st.Attempts != 4 || st.Bogus.RefusedBusy != 6 {
		t.Fatalf("%d in flight, %d started, %d refused; want 4, 4, 6", st.Handshaking, st.Attempts, st.Bogus.RefusedBusy)
	}
	// They time out, and a real client then gets in.
	eventually(t, "the half-open handshakes to time out", func() bool { return srv.Stats().Handshaking == 0 })
	c, err := dial(t, srv, srv.Pin(), false, nil)
	if err != nil {
		t.Fatalf("a real client after: %v", err)
	}
	exchange(t, srv, c, connected(t, srv), "after")
}
