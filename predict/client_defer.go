package predict

import (
	"errors"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
)

// maxHeld bounds the snapshots a state-sync client holds back for their
// relays, and maxHold the ticks it holds one: past either, it takes the
// oldest as it is (the relay is lost or very late, and a later relay will
// tell the inputs anyway).
const (
	maxHeld = 8
	maxHold = 16
)

// heldSnapshot is a snapshot held back for its relay.
type heldSnapshot struct {
	tick  uint32 // its label
	since uint32 // the client's tick when it arrived
	b     []byte
}

// awaitsRelay reports whether a state-sync client should hold back the
// snapshot of tick T, whose every-player input chain is all and whose
// count of server events is events: the server applied other inputs
// before T than the client's history holds, or events since the client's
// newest snapshot (a player joined or left), and with several players the
// relay that says which (sent with every snapshot, from the client's ack
// to the snapshot's tick) has not come yet: the link let the snapshot
// overtake it. Compared now, the snapshot could only
// say "remote" and put the client out of step; once the relay is in, the
// client has replayed with those inputs (refresh), and the hashes compare
// as an input-sync client's do. A client that has had no relay for
// maxHold ticks (the others left, the server sends none) waits for none.
func (c *Client) awaitsRelay(T uint32, all uint64, events uint32) bool {
	if !c.Config.Corrections || len(c.scene.Players) < 2 || !c.st.haveRelay || c.Tick()-c.st.relayAt > maxHold {
		return false // no relays come (the only player left): none to wait for
	}
	if c.st.haveRelay && !tick.After(T, c.st.relayEnd) {
		return false // its relay came: the inputs differ for another reason
	}
	if events != c.view.events {
		return true // the relay tells which events, and the client applies them (remoteInputs)
	}
	own, ok := c.hist.all.Get(T)
	return ok && *own != all
}

// holdSnapshot keeps a copy of snapshot b of tick T until a relay covers T
// or it has waited maxHold ticks (takeHeld).
func (c *Client) holdSnapshot(b []byte, T uint32) {
	var h heldSnapshot
	if n := len(c.st.held); n < cap(c.st.held) {
		h = c.st.held[:n+1][n] // reuse its buffer
	}
	h.tick, h.since, h.b = T, c.Tick(), append(h.b[:0], b...)
	c.st.held = append(c.st.held, h)
	c.Stats.Deferred++
}

// takeHeld takes, oldest first, the snapshots held back whose relay has
// come, and those held too long or beyond maxHeld, as they are now,
// without holding them again. A refusal is counted as any other and does
// not stop the message that brought this on.
func (c *Client) takeHeld() error {
	for len(c.st.held) > 0 {
		h := &c.st.held[0]
		relayed := c.st.haveRelay && !tick.After(h.tick, c.st.relayEnd)
		if !relayed && len(c.st.held) <= maxHeld && c.Tick()-h.since < maxHold {
			return nil
		}
		if !relayed {
			c.Stats.Unrelayed++
		}
		b := h.b
		err := c.snapshot(b, false)
		// Shift the rest down, keeping the buffer for reuse at the end.
		copy(c.st.held, c.st.held[1:])
		n := len(c.st.held) - 1
		c.st.held[n].b = b
		c.st.held = c.st.held[:n]
		if err != nil && !errors.Is(err, protocol.ErrRejected) {
			return err
		}
	}
	return nil
}
