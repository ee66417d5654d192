package predict

import (
	"errors"
	"fmt"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/physics"
)

// ErrNonFinite is wrapped by the error Receive or Step returns when the
// client's world came out of a step (or a replay) with a non-finite value.
// The client does not go on with that world: it holds, asks the server for
// its whole state, and starts again from that transfer, as when it joins.
// The error is the client's report; the endpoint counts it and goes on.
var ErrNonFinite = errors.New("predict: a step gave a non-finite value")

// checkBodies refuses the bodies of a state from the network when a value
// is beyond what the engine can produce in the scene (c.bounds), counting
// the refusal under protocol.RejectBounds.
func (c *Client) checkBodies(what string, T uint32, bodies func(yield func(int32, *physics.BodyState) bool)) error {
	var err error
	bodies(func(i int32, b *physics.BodyState) bool {
		if e := c.bounds.Check(b); e != nil {
			err = c.Stats.Rejected.Reject(protocol.RejectBounds, "%s of tick %d, body %d: %v", what, T, i, e)
			return false
		}
		return true
	})
	return err
}

// checkContacts refuses the contacts a message of tick T carries when an
// impulse is beyond what the scene can produce (game.Bounds.Impulse):
// warm-started, it would throw the bodies it holds apart.
func (c *Client) checkContacts(what string, T uint32, cs []physics.ContactState) error {
	for i := range cs {
		if err := c.bounds.CheckContact(&cs[i]); err != nil {
			return c.Stats.Rejected.Reject(protocol.RejectBounds, "%s of tick %d, contact of bodies %d and %d: %v", what, T, cs[i].A, cs[i].B, err)
		}
	}
	return nil
}

// checkFinite reports a world that a step left with a non-finite value (or
// one beyond the bounds, the way to it): the client stops predicting from
// it and waits for a transfer.
func (c *Client) checkFinite(where string) error {
	if !c.join.joined || c.join.waitingFor {
		return nil
	}
	s := c.world.State()
	err := c.world.Check(s)
	if err == nil {
		for i := range s.Bodies {
			if e := c.bounds.Check(&s.Bodies[i]); e != nil {
				err = fmt.Errorf("body %d: %w", i, e)
				break
			}
		}
	}
	if err == nil {
		return nil
	}
	c.Stats.NonFinite++
	c.join.waitingFor, c.join.waited = true, 0
	c.view.askXfer = true
	c.xfer.active, c.xfer.onlyIt = false, false
	return fmt.Errorf("%w at tick %d, %s (%v); waiting for the server's state", ErrNonFinite, c.Tick(), where, err)
}

// Settled reports whether the client took a server state since it had
// taken since of them (its StatesReceived then), that state matched its
// prediction bit for bit, and its cube is at rest: the end of a drain.
func (c *Client) Settled(since uint64) bool {
	cmp := c.Compared()
	b := c.world.Body(c.body)
	return c.Stats.StatesReceived != since && cmp.ClientHash == cmp.ServerHash &&
		b.Vel.Len() < 1e-3 && b.AngVel.Len() < 1e-3
}
