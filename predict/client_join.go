package predict

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
)

// ErrRefused is wrapped by the error Receive returns when the server
// refuses the client's Hello: that error is a *RefusedError.
var ErrRefused = errors.New("predict: the server refused to join")

// RefusedError is the error Receive returns when the server refuses the
// client's Hello. It matches ErrRefused under errors.Is.
type RefusedError struct {
	// Why is the refusal's reason, and what the server runs when it said
	// so: "it runs another scene: the server runs ...".
	Why string
}

// Error says that the server refused, and why.
func (e *RefusedError) Error() string { return ErrRefused.Error() + ": " + e.Why }

// Unwrap makes a RefusedError an ErrRefused.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// onWelcome starts predicting, or waits for the transfer announced.
func (c *Client) onWelcome(b []byte) error {
	if err := wire.DecodeWelcome(b, &c.buf.welc); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	m := &c.buf.welc
	if m.Nonce != c.join.nonce || c.join.joined {
		c.Stats.StaleStates++ // an answer to another Hello, or a duplicate
		return nil
	}
	if m.Result != wire.Accepted {
		if m.Runs != nil {
			return &RefusedError{Why: fmt.Sprintf("%s: the server runs %s", refusal(m.Result), m.Runs)}
		}
		return &RefusedError{Why: refusal(m.Result)}
	}
	if int(m.Player) >= len(c.scene.Players) {
		return c.Stats.Rejected.Reject(protocol.RejectShape, "player %d, the scene has %d", m.Player, len(c.scene.Players))
	}
	if c.Clock != nil {
		// The echo is the clock of one of the client's Hellos: not later
		// than now, not before the first. Another would make the client
		// use, and report, a round trip the link never had.
		now := c.clockMs()
		if !c.join.helloSent || now-m.Echo > now-c.join.firstHello {
			return c.Stats.Rejected.Reject(protocol.RejectShape, "a Welcome echoing clock %d ms: this client sent its Hellos from %d to %d ms", m.Echo, c.join.firstHello, now)
		}
		c.join.rtt = time.Duration(now-m.Echo) * time.Millisecond
	}
	c.join.joined, c.player, c.body = true, int(m.Player), c.scene.Players[m.Player]
	if m.Transfer {
		c.join.waitingFor, c.join.waited = true, 0
		c.xfer.expect(m.Tick)
		return nil
	}
	c.world.SkipTo(m.Tick)
	c.start(m.Tick, protocol.ChainStart, protocol.ChainStart, 0, 0)
	c.Sync.start(c.join.rtt, c.tickDur(), 0)
	return nil
}

// noteHello notes the clock of the first Hello sent, the earliest a
// Welcome may echo.
func (c *Client) noteHello() {
	if !c.join.helloSent {
		c.join.helloSent, c.join.firstHello = true, c.clockMs()
	}
}

// clockMs returns the client's clock in milliseconds, for the Hello's echo.
func (c *Client) clockMs() uint32 {
	if c.Clock == nil {
		return 0
	}
	return uint32(c.Clock() / time.Millisecond)
}

// start makes the world as it stands the server's state at tick t.
func (c *Client) start(t uint32, chain, all uint64, events, skipped uint32) {
	c.first, c.view.newest, c.view.haveNewest, c.in.confirmed = t, t, true, t
	c.view.synced, c.view.events, c.view.skipped = true, events, skipped
	c.view.lastSynced = t
	*c.hist.hashes.Put(t) = c.world.Hash()
	*c.hist.chains.Put(t) = chain
	*c.hist.all.Put(t) = all
	*c.hist.players.Put(t) = c.world.Body(c.body)
	c.st.views.Reset(t, c.world.State())
	// Snapshots held for their relays and what the relays said belong to
	// the history before: a restart from a transfer drops them.
	c.st.held, c.st.haveRelay = c.st.held[:0], false
	c.view.newestBody = c.world.Body(c.body)
	c.hist.anchor(c.world)
	c.hist.release(t)
}

// refusal says why a server refused.
func refusal(r uint8) string {
	switch r {
	case wire.OtherScene:
		return "it runs another scene (or builds it differently)"
	case wire.OtherMode:
		return "it runs the other sync mode"
	case wire.ServerFull:
		return "it is full"
	case wire.OtherVersion:
		return "it speaks another protocol version"
	}
	return fmt.Sprintf("result %d", r)
}
