package transport

import (
	"time"

	"github.com/cubelab/cube/netsim"
)

// MemClient is the in-process Client, made by MemServer.Connect. Its
// netsim.Pair carries its datagrams: Up is its outgoing link, Down its
// incoming one.
type MemClient struct {
	srv  *MemServer
	peer *memPeer
	pair *netsim.Pair
	c    counters
	err  error
	now  time.Duration // latest now seen

	abandoned bool
	diedAt    time.Duration
}

// Peer returns the ID the server gives this client.
func (c *MemClient) Peer() PeerID { return c.peer.id }

// lose ends the connection with err, unless it already ended.
func (c *MemClient) lose(err error) {
	if c.err == nil {
		c.err = err
	}
}

// advance moves the client's clock to now and notices an abandoned
// server once the idle timeout has passed.
func (c *MemClient) advance(now time.Duration) {
	c.now = max(c.now, now)
	if s := c.srv; s.abandoned && c.err == nil && c.now >= s.diedAt+s.opts.IdleTimeout {
		c.err = &LostError{Addr: memAddr, Reason: ReasonTimeout, Timeout: s.opts.IdleTimeout}
	}
}

// Receive implements Client.
func (c *MemClient) Receive(now time.Duration, dst [][]byte) [][]byte {
	if c.err != nil {
		return dst
	}
	c.advance(now)
	if c.err != nil {
		return dst
	}
	for _, p := range c.pair.Down.Receive(now) {
		dst = append(dst, p.Data)
		c.c.countReceived(len(p.Data))
	}
	return dst
}

// Send implements Client.
func (c *MemClient) Send(now time.Duration, b []byte) error {
	if c.err != nil {
		return c.err
	}
	c.advance(now)
	if c.err != nil {
		return c.err
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
	return nil
}

// SetConditions implements Client.
func (c *MemClient) SetConditions(out, in netsim.Conditions) error {
	return setPairConditions(c.pair, out, in)
}

// setPairConditions sets p's outgoing (Up) and incoming (Down) conditions,
// or neither if either is invalid.
func setPairConditions(p *netsim.Pair, out, in netsim.Conditions) error {
	if err := out.Validate(); err != nil {
		return errorf(err, nil, "transport: outgoing conditions: %v", err)
	}
	if err := in.Validate(); err != nil {
		return errorf(err, nil, "transport: incoming conditions: %v", err)
	}
	if err := p.Up.SetConditions(out); err != nil {
		return err
	}
	return p.Down.SetConditions(in)
}

// Err implements Client.
func (c *MemClient) Err() error { return c.err }

// Stats implements Client.
func (c *MemClient) Stats() Counters { return c.c.snapshot() }

// Close implements Client: the server reports the peer gone with
// ReasonClosed.
func (c *MemClient) Close() error {
	if c.err == ErrClosed {
		return nil
	}
	wasLive := c.err == nil
	c.err = ErrClosed
	if wasLive && !c.abandoned {
		c.srv.detach(c.peer, ReasonClosed, "client closed")
	}
	return nil
}

// Abandon stops the client as a crashed process would: the server is not
// told, and reports the peer gone with ReasonTimeout once its clock has
// passed the idle timeout after the latest now this client saw. The
// client accepts no further call; its Err matches ErrClosed.
func (c *MemClient) Abandon() {
	if c.err != nil {
		return
	}
	c.abandoned = true
	c.diedAt = c.now
	c.err = ErrClosed
}
