package transport

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/quic-go/quic-go"
)

// QUICClient is the Client over QUIC datagrams. Its goroutines (one
// receives, one sends, plus quic-go's) hand datagrams over through bounded
// queues; the netsim conditioner runs on the caller's goroutine and clock.
type QUICClient struct {
	addr string
	idle time.Duration
	udp  *net.UDPConn
	tr   *quic.Transport
	conn *quic.Conn
	c    counters
	in   chan []byte // datagrams received, waiting for Receive
	snd  *sender
	wg   sync.WaitGroup

	mu  sync.Mutex
	err error // why the connection ended; nil while it lives

	// Owned by the caller's goroutine.
	pair      *netsim.Pair // Up conditions what is sent, Down what arrives
	closeOnce sync.Once
}

// Dial connects to the server at addr, a UDP address such as
// "127.0.0.1:4242", and checks that its certificate's SHA-256 fingerprint
// is pin (see ParsePin); nothing else about the certificate is checked.
// With insecure set and pin empty the certificate is not checked at all,
// which is refused unless addr is a loopback address; the caller should
// print InsecureWarning. A pin given with insecure is still checked.
// Options o may be nil for the defaults; HandshakeTimeout bounds the dial.
//
// Errors are one line for a user and match ErrBadPin, ErrInsecureRemote,
// ErrPinMismatch, ErrNoAnswer or ErrRefused where they apply.
func Dial(ctx context.Context, addr, pin string, insecure bool, o *Options) (*QUICClient, error) {
	quiet()
	opts, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("transport: server address %q: %w", addr, err)
	}
	var mismatch atomic.Bool
	tlsConf := &tls.Config{
		NextProtos: []string{ALPN},
		MinVersion: tls.VersionTLS13,
		// The certificate is self-signed: no chain or name can be
		// checked. VerifyPeerCertificate checks the pin instead.
		InsecureSkipVerify: true,
	}
	switch {
	case pin != "":
		fp, err := ParsePin(pin)
		if err != nil {
			return nil, err
		}
		tlsConf.VerifyPeerCertificate = pinVerifier(fp, func() { mismatch.Store(true) })
	case !insecure:
		return nil, errorf(ErrBadPin, nil, "transport: connecting to %s needs the server's pin", addr)
	case !ua.IP.IsLoopback():
		return nil, errorf(ErrInsecureRemote, nil, "transport: insecure mode is only for loopback addresses, not %s; give the server's pin", addr)
	}

	seed := opts.Seed
	if seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	pair, err := netsim.NewPair(netsim.Conditions{}, seed)
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}

	var local *net.UDPAddr
	if opts.LocalAddr != "" {
		if local, err = net.ResolveUDPAddr("udp", opts.LocalAddr); err != nil {
			return nil, fmt.Errorf("transport: local address %q: %w", opts.LocalAddr, err)
		}
	}
	udp, err := net.ListenUDP("udp", local)
	if err != nil {
		return nil, fmt.Errorf("transport: opening a UDP socket: %w", err)
	}
	tr := &quic.Transport{Conn: udp}
	dctx, cancel := context.WithTimeout(ctx, opts.HandshakeTimeout)
	defer cancel()
	conn, err := tr.Dial(dctx, ua, tlsConf, quicConfig(opts))
	if err != nil {
		tr.Close()
		udp.Close()
		return nil, dialError(ctx, err, addr, opts.HandshakeTimeout, mismatch.Load())
	}
	if !conn.ConnectionState().SupportsDatagrams.Remote {
		_ = conn.CloseWithError(codeNoDatagrams, "this client needs QUIC datagrams (RFC 9221)")
		tr.Close()
		udp.Close()
		return nil, errorf(ErrRefused, nil, "transport: the server at %s does not support QUIC datagrams", addr)
	}
	c := &QUICClient{
		addr: addr,
		idle: opts.IdleTimeout,
		udp:  udp,
		tr:   tr,
		conn: conn,
		in:   make(chan []byte, opts.QueueLen),
		pair: pair,
	}
	c.snd = newSender(opts.QueueLen, &c.c)
	c.wg.Add(2)
	go func() {
		defer c.wg.Done()
		c.receive()
	}()
	go func() {
		defer c.wg.Done()
		c.snd.run(conn)
	}()
	return c, nil
}

// dialError turns a failed dial into one clear line.
func dialError(ctx context.Context, err error, addr string, timeout time.Duration, mismatch bool) error {
	var (
		hto  *quic.HandshakeTimeoutError
		idle *quic.IdleTimeoutError
		te   *quic.TransportError
		app  *quic.ApplicationError
	)
	switch {
	case mismatch:
		return errorf(ErrPinMismatch, err, "transport: the certificate of the server at %s does not match the pin", addr)
	case ctx.Err() != nil:
		return fmt.Errorf("transport: connecting to %s: %w", addr, ctx.Err())
	case errors.As(err, &hto), errors.As(err, &idle), errors.Is(err, context.DeadlineExceeded):
		return errorf(ErrNoAnswer, err, "transport: no answer from %s within %v; is a cube server listening there?", addr, timeout)
	case errors.As(err, &te) && te.Remote && te.ErrorCode == quic.TransportErrorCode(0x100+tlsAlertNoApplicationProtocol):
		return errorf(ErrRefused, err, "transport: the server at %s does not speak %s", addr, ALPN)
	case errors.As(err, &te) && te.ErrorCode == quic.ConnectionRefused:
		return errorf(ErrRefused, err, "transport: the server at %s refused the connection", addr)
	case errors.As(err, &app) && app.Remote:
		return errorf(ErrRefused, err, "transport: the server at %s refused the connection: %s", addr, app.ErrorMessage)
	}
	return fmt.Errorf("transport: connecting to %s: %w", addr, err)
}

// tlsAlertNoApplicationProtocol is TLS's no_application_protocol alert
// (RFC 7301); QUIC carries TLS alerts as transport errors 0x100+alert.
const tlsAlertNoApplicationProtocol = 120

// receive moves datagrams into c.in until the connection ends, then
// records why.
func (c *QUICClient) receive() {
	for {
		d, err := c.conn.ReceiveDatagram(context.Background())
		if err != nil {
			c.lose(c.lostError(err))
			return
		}
		select {
		case c.in <- d:
		default:
			c.c.countRecvQueue(len(d))
		}
	}
}

// lostError classifies the error that ended the connection.
func (c *QUICClient) lostError(err error) error {
	var (
		app   *quic.ApplicationError
		idle  *quic.IdleTimeoutError
		reset *quic.StatelessResetError
	)
	switch {
	case errors.As(err, &idle):
		return &LostError{Addr: c.addr, Reason: ReasonTimeout, Timeout: c.idle}
	case errors.As(err, &app) && app.Remote:
		return &LostError{Addr: c.addr, Reason: ReasonClosed, Detail: app.ErrorMessage}
	case errors.As(err, &app), errors.Is(err, quic.ErrTransportClosed):
		return ErrClosed // closed here
	case errors.As(err, &reset):
		return &LostError{Addr: c.addr, Reason: ReasonClosed, Detail: "it no longer knows this connection (restarted?)"}
	}
	return &LostError{Addr: c.addr, Reason: ReasonError, Detail: err.Error()}
}

// lose records err as the end of the connection, unless one is recorded.
func (c *QUICClient) lose(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
}

// Err implements Client.
func (c *QUICClient) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// flush hands the outgoing datagrams due by now to the sender.
func (c *QUICClient) flush(now time.Duration) {
	for _, p := range c.pair.Up.Receive(now) {
		c.snd.send(p.Data)
	}
}

// Receive implements Client. Datagrams enter the incoming conditioner
// when Receive finds them, at now, so the simulated delay adds to the
// real one and to the time between calls. Receive also sends the
// outgoing datagrams that have become due.
func (c *QUICClient) Receive(now time.Duration, dst [][]byte) [][]byte {
	if c.Err() != nil {
		return dst
	}
	c.flush(now)
	for more := true; more; {
		select {
		case d := <-c.in:
			if conditionedSend(c.pair.Down, now, d) {
				c.c.droppedIn.Add(1)
				c.c.droppedBytes.Add(uint64(len(d)))
			}
		default:
			more = false
		}
	}
	for _, p := range c.pair.Down.Receive(now) {
		dst = append(dst, p.Data)
		c.c.countReceived(len(p.Data))
	}
	return dst
}

// Send implements Client. The datagram enters the outgoing conditioner at
// now and leaves when due, at this or a later Send or Receive.
func (c *QUICClient) Send(now time.Duration, b []byte) error {
	if err := c.Err(); err != nil {
		return err
	}
	if len(b) > MaxDatagram {
		c.c.countSize(len(b))
		return tooLarge(len(b))
	}
	c.c.countSent(len(b))
	if conditionedSend(c.pair.Up, now, b) {
		c.c.droppedOut.Add(1)
		c.c.droppedBytes.Add(uint64(len(b)))
	}
	c.flush(now)
	return nil
}

// SetConditions implements Client.
func (c *QUICClient) SetConditions(out, in netsim.Conditions) error {
	return setPairConditions(c.pair, out, in)
}

// Stats implements Client.
func (c *QUICClient) Stats() Counters { return c.c.snapshot() }

// Close implements Client: it tells the server, closes the socket and
// waits for the client's goroutines.
func (c *QUICClient) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.err = ErrClosed
		c.mu.Unlock()
		_ = c.conn.CloseWithError(codeClosed, "client closed")
		err = c.shut()
	})
	return err
}

// Abandon drops the connection as a crashed process would: the socket
// closes and the server is not told, so it reports the peer gone with
// ReasonTimeout after its idle timeout. The client's Err then matches
// ErrClosed.
func (c *QUICClient) Abandon() {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.err = ErrClosed
		c.mu.Unlock()
		_ = c.shut()
	})
}

// shut closes the transport and the socket and waits for the goroutines.
func (c *QUICClient) shut() error {
	errs := []error{c.tr.Close(), c.udp.Close()}
	c.wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("transport: closing the client: %w", err)
	}
	return nil
}
