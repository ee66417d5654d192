package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
)

// QUICServer is the Server over QUIC datagrams (RFC 9221). quic-go's and
// its own goroutines run inside it: one accepts connections, one reads the
// socket's non-QUIC packets to count them, and each connection has one
// that receives and one that sends. They hand datagrams and events to the
// caller through the server's bounded stream (see Server).
type QUICServer struct {
	opts  Options
	udp   *net.UDPConn
	tr    *quic.Transport
	ln    *quic.Listener
	pin   string
	addr  string
	st    *stream
	bogus bogusCounters

	attempts    atomic.Uint64
	handshaking atomic.Int64 // handshakes in flight (see limitHandshakes)
	ctx         context.Context
	cancel      context.CancelFunc
	wg          sync.WaitGroup
	closing     atomic.Bool

	mu  sync.Mutex
	all map[PeerID]*qpeer // accepted, until Events reports them gone
	// perAddr counts the connections of each IP, from their first packet
	// until their context ends (see admit).
	perAddr map[string]int
	rate    *handshakeRate // handshakes begun by address (Options.HandshakesPerSec)
	nextID  PeerID

	// Owned by the caller's goroutine.
	peers           map[PeerID]*qpeer // reported connected and not yet gone
	connected, gone uint64
	goneTotals      Counters
	closeOnce       sync.Once
	closeErr        error
}

// qpeer is one connection on a QUICServer.
type qpeer struct {
	id   PeerID
	addr string
	conn *quic.Conn
	c    counters
	snd  *sender
	dead atomic.Bool // the connection has ended
	// trusted: the caller vouched for it (Trust): a full server never
	// closes it to make room. Guarded by the server's mu.
	trusted bool
}

// Listen starts a server on the UDP address addr ("127.0.0.1:0" picks a
// free port; BoundAddr tells which) with a new self-signed certificate,
// and options o (nil for the defaults).
func Listen(addr string, o *Options) (*QUICServer, error) {
	quiet()
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("transport: listen address %q: %w", addr, err)
	}
	cert, pin, err := newCertificate()
	if err != nil {
		return nil, err
	}
	udp, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("transport: listening on %s: %w", addr, err)
	}
	s := &QUICServer{
		opts:    opts,
		udp:     udp,
		pin:     pin,
		addr:    udp.LocalAddr().String(),
		st:      newStream(min(opts.QueueLen, opts.PeerQueueLen)),
		nextID:  1,
		all:     make(map[PeerID]*qpeer),
		perAddr: make(map[string]int),
		rate:    newHandshakeRate(opts.HandshakesPerSec),
		peers:   make(map[PeerID]*qpeer),
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.tr = &quic.Transport{
		Conn:        udp,
		Tracer:      dropTracer{&s.bogus},
		ConnContext: s.admit(s.limitHandshakes(trackAttempt(&s.attempts, &s.bogus))),
		// Under load, an attempt proves its address before it costs
		// state (Options.RetryAbove).
		VerifySourceAddress: s.verifySource,
	}
	s.ln, err = s.tr.Listen(serverTLS(cert), quicConfig(opts))
	if err != nil {
		s.tr.Close()
		udp.Close()
		return nil, fmt.Errorf("transport: listening on %s: %w", addr, err)
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		countNotQUIC(s.ctx, s.tr, &s.bogus)
	}()
	go func() {
		defer s.wg.Done()
		s.accept()
	}()
	return s, nil
}

// BoundAddr returns the address the server listens on, port included.
func (s *QUICServer) BoundAddr() string { return s.addr }

// Pin returns the SHA-256 fingerprint of the server's certificate, as 64
// lowercase hex digits; clients dial with it.
func (s *QUICServer) Pin() string { return s.pin }

// accept takes the connections whose handshake completed until the
// listener closes.
func (s *QUICServer) accept() {
	for {
		conn, err := s.ln.Accept(s.ctx)
		if err != nil {
			return
		}
		markAccepted(conn)
		if done, ok := conn.Context().Value(handshakeKey{}).(func()); ok {
			done()
		}
		if !conn.ConnectionState().SupportsDatagrams.Remote {
			s.bogus.refused.Add(1)
			_ = conn.CloseWithError(codeNoDatagrams, "this server needs QUIC datagrams (RFC 9221)")
			continue
		}
		s.mu.Lock()
		if s.closing.Load() {
			s.mu.Unlock()
			_ = conn.CloseWithError(codeClosed, "server closed")
			return
		}
		if s.open() >= s.opts.MaxConns {
			victim := s.untrustedVictim()
			if victim == nil || len(s.all) >= 2*s.opts.MaxConns {
				s.mu.Unlock()
				s.bogus.refused.Add(1)
				_ = conn.CloseWithError(codeFull, fmt.Sprintf("server full: %d connections open", s.opts.MaxConns))
				continue
			}
			victim.dead.Store(true)
			s.bogus.evicted.Add(1)
			s.rate.charge(ipOf(victim.conn.RemoteAddr()), evictCharge, time.Now())
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				_ = victim.conn.CloseWithError(codeFull, fmt.Sprintf("server full: %d connections open, and this one had not joined", s.opts.MaxConns))
			}()
		}
		p := &qpeer{id: s.nextID, addr: conn.RemoteAddr().String(), conn: conn}
		p.snd = newSender(s.opts.QueueLen, &p.c)
		s.nextID++
		s.all[p.id] = p
		s.mu.Unlock()

		s.st.pushEvent(PeerEvent{Peer: p.id, Kind: Connected, Addr: p.addr})
		s.wg.Add(2)
		go func() {
			defer s.wg.Done()
			s.receive(p)
		}()
		go func() {
			defer s.wg.Done()
			p.snd.run(conn)
		}()
	}
}

// open returns the connections open: accepted, not yet reported gone,
// and not ended. Call with mu held.
func (s *QUICServer) open() int {
	n := 0
	for _, p := range s.all {
		if !p.dead.Load() {
			n++
		}
	}
	return n
}

// untrustedVictim returns the connection a full server closes to make
// room for a new one: among the open connections the caller has not
// trusted, the oldest of the address that holds the most of them, so that
// hosts holding many connections lose theirs first and a lone client
// dialling in is closed last. It returns nil when every open connection is
// trusted. Call with mu held.
func (s *QUICServer) untrustedVictim() *qpeer {
	count := make(map[string]int, len(s.all))
	for _, p := range s.all {
		if !p.trusted && !p.dead.Load() {
			count[hostOf(p.addr)]++
		}
	}
	var victim *qpeer
	most := 0
	for _, p := range s.all {
		if p.trusted || p.dead.Load() {
			continue
		}
		n := count[hostOf(p.addr)]
		if n > most || n == most && p.id < victim.id {
			victim, most = p, n
		}
	}
	return victim
}

// Trust implements Server: the peer joined, so a full server keeps it.
func (s *QUICServer) Trust(id PeerID) {
	s.mu.Lock()
	if p := s.all[id]; p != nil {
		p.trusted = true
	}
	s.mu.Unlock()
}

// hostOf returns the host part of an address "host:port", or the address.
func hostOf(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// admit wraps next, the ConnContext that tracks attempts, with the cap of
// connections per address: a new connection from an address that already
// has MaxConnsPerAddr (handshaking or open) is refused before its
// handshake, so that a host re-dialling costs the server no cryptography
// and takes no connection from another host. A connection counts from
// its first packet until its context ends (closed, or its handshake
// failed).
func (s *QUICServer) admit(next func(context.Context, *quic.ClientInfo) (context.Context, error)) func(context.Context, *quic.ClientInfo) (context.Context, error) {
	return func(ctx context.Context, ci *quic.ClientInfo) (context.Context, error) {
		ip := ipOf(ci.RemoteAddr)
		if s.opts.MaxConnsPerAddr >= s.opts.MaxConns {
			s.mu.Lock()
			ok := s.rate.take(ip, time.Now())
			s.mu.Unlock()
			if !ok {
				s.bogus.refusedAddr.Add(1)
				return ctx, fmt.Errorf("transport: %s begins handshakes faster than %g a second", ip, s.opts.HandshakesPerSec)
			}
			return next(ctx, ci) // no cap of its own: MaxConns decides
		}
		s.mu.Lock()
		if !s.rate.take(ip, time.Now()) {
			s.mu.Unlock()
			s.bogus.refusedAddr.Add(1)
			return ctx, fmt.Errorf("transport: %s begins handshakes faster than %g a second", ip, s.opts.HandshakesPerSec)
		}
		if s.perAddr[ip] >= s.opts.MaxConnsPerAddr {
			s.mu.Unlock()
			s.bogus.refusedAddr.Add(1)
			return ctx, fmt.Errorf("transport: %d connections open from %s", s.opts.MaxConnsPerAddr, ip)
		}
		s.perAddr[ip]++
		s.mu.Unlock()
		ctx, err := next(ctx, ci)
		context.AfterFunc(ctx, func() {
			s.mu.Lock()
			if s.perAddr[ip]--; s.perAddr[ip] <= 0 {
				delete(s.perAddr, ip)
			}
			s.mu.Unlock()
		})
		return ctx, err
	}
}

// verifySource tells quic-go whether a new attempt must prove its address
// with a Retry first: once Options.RetryAbove handshakes are in flight.
func (s *QUICServer) verifySource(net.Addr) bool {
	if s.handshaking.Load() < int64(s.opts.RetryAbove) {
		return false
	}
	s.bogus.retried.Add(1)
	return true
}

// handshakeKey keys the function that ends a handshake's count in flight
// in its connection's context.
type handshakeKey struct{}

// limitHandshakes wraps next with the cap of handshakes in flight
// (Options.MaxHandshakes): an attempt beyond it is refused before its
// handshake begins. A handshake counts from its first packet (after any
// Retry) until the server accepts its connection or it fails (its context
// ends).
func (s *QUICServer) limitHandshakes(next func(context.Context, *quic.ClientInfo) (context.Context, error)) func(context.Context, *quic.ClientInfo) (context.Context, error) {
	return func(ctx context.Context, ci *quic.ClientInfo) (context.Context, error) {
		if s.handshaking.Add(1) > int64(s.opts.MaxHandshakes) {
			s.handshaking.Add(-1)
			s.bogus.refusedBusy.Add(1)
			return ctx, fmt.Errorf("transport: %d handshakes in flight", s.opts.MaxHandshakes)
		}
		var once sync.Once
		done := func() { once.Do(func() { s.handshaking.Add(-1) }) }
		ctx, err := next(ctx, ci)
		if err != nil {
			done()
			return ctx, err
		}
		ctx = context.WithValue(ctx, handshakeKey{}, done)
		context.AfterFunc(ctx, done)
		return ctx, nil
	}
}

// ipOf returns the IP of a UDP address as text, without the port.
func ipOf(a net.Addr) string {
	if u, ok := a.(*net.UDPAddr); ok {
		return u.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// receive moves p's datagrams into the stream until its connection ends,
// then reports it gone.
func (s *QUICServer) receive(p *qpeer) {
	for {
		d, err := p.conn.ReceiveDatagram(context.Background())
		if err != nil {
			p.dead.Store(true)
			r, detail := goneReason(err)
			s.st.pushEvent(PeerEvent{Peer: p.id, Kind: Gone, Addr: p.addr, Reason: r, Detail: detail})
			return
		}
		if !s.st.pushDatagram(p.id, &p.c, d) {
			p.c.countRecvQueue(len(d))
		}
	}
}

// goneReason classifies the error that ended a server's connection.
func goneReason(err error) (Reason, string) {
	var (
		app   *quic.ApplicationError
		idle  *quic.IdleTimeoutError
		reset *quic.StatelessResetError
	)
	switch {
	case errors.As(err, &idle):
		return ReasonTimeout, ""
	case errors.As(err, &app) && app.Remote:
		return ReasonClosed, app.ErrorMessage
	case errors.As(err, &app):
		return ReasonLocal, app.ErrorMessage
	case errors.As(err, &reset):
		return ReasonClosed, "the client no longer knows this connection"
	}
	return ReasonError, err.Error()
}

// Receive implements Server. now is not used: QUIC traffic is not
// conditioned on the server.
func (s *QUICServer) Receive(_ time.Duration, dst []Datagram) []Datagram {
	return s.st.takeDatagrams(dst)
}

// Events implements Server.
func (s *QUICServer) Events(dst []PeerEvent) []PeerEvent {
	n := len(dst)
	dst = s.st.takeEvents(dst)
	for i, ev := range dst[n:] {
		s.mu.Lock()
		p := s.all[ev.Peer]
		if ev.Kind == Gone {
			delete(s.all, ev.Peer)
		}
		s.mu.Unlock()
		if p == nil {
			continue
		}
		switch ev.Kind {
		case Connected:
			s.peers[ev.Peer] = p
			s.connected++
		case Gone:
			c := p.c.snapshot()
			dst[n+i].Counters = c
			s.goneTotals.add(c)
			delete(s.peers, ev.Peer)
			s.gone++
		}
	}
	return dst
}

// live returns the peer with id if it is reported connected and its
// connection still lives.
func (s *QUICServer) live(id PeerID) *qpeer {
	p := s.peers[id]
	if p == nil || p.dead.Load() {
		return nil
	}
	return p
}

// Send implements Server. The datagram is queued for the peer's sending
// goroutine; now is not used.
func (s *QUICServer) Send(_ time.Duration, to PeerID, b []byte) error {
	if s.closing.Load() {
		return ErrClosed
	}
	p := s.live(to)
	if p == nil {
		return unknownPeer(to)
	}
	if len(b) > MaxDatagram {
		p.c.countSize(len(b))
		return tooLarge(len(b))
	}
	p.c.countSent(len(b))
	p.snd.send(b)
	return nil
}

// Disconnect implements Server. The close is sent from a goroutine of
// the server's, so the caller does not wait for quic-go.
func (s *QUICServer) Disconnect(to PeerID, reason string) error {
	if s.closing.Load() {
		return ErrClosed
	}
	p := s.live(to)
	if p == nil {
		return unknownPeer(to)
	}
	p.dead.Store(true)
	// Add under mu, after checking closing again: Close sets closing
	// under mu before it waits, so it never waits while a goroutine is
	// being added.
	s.mu.Lock()
	if s.closing.Load() {
		s.mu.Unlock()
		return ErrClosed
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		_ = p.conn.CloseWithError(codeKicked, reason)
	}()
	return nil
}

// Stats implements Server.
func (s *QUICServer) Stats() ServerStats {
	st := ServerStats{
		Totals:      s.goneTotals,
		Connected:   s.connected,
		Gone:        s.gone,
		Attempts:    s.attempts.Load(),
		Handshaking: uint64(max(0, s.handshaking.Load())),
		Bogus:       s.bogus.snapshot(),
	}
	for id, p := range s.peers {
		c := p.c.snapshot()
		st.Totals.add(c)
		st.Peers = append(st.Peers, PeerStats{Peer: id, Addr: p.addr, Counters: c})
	}
	slices.SortFunc(st.Peers, func(a, b PeerStats) int { return int(int64(a.Peer) - int64(b.Peer)) })
	return st
}

// Close implements Server: it closes every connection with the message
// "server closed", then the socket, and waits for its goroutines. Gone
// events for the peers remain to be read by Events.
func (s *QUICServer) Close() error {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closing.Store(true)
		var conns []*qpeer
		for _, p := range s.all {
			if !p.dead.Load() {
				conns = append(conns, p)
			}
		}
		s.mu.Unlock()
		for _, p := range conns {
			_ = p.conn.CloseWithError(codeClosed, "server closed")
		}
		s.cancel()
		errs := []error{s.ln.Close(), s.tr.Close(), s.udp.Close()}
		s.wg.Wait()
		if err := errors.Join(errs...); err != nil {
			s.closeErr = fmt.Errorf("transport: closing the server: %w", err)
		}
	})
	return s.closeErr
}
