package predict

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// helloEvery is how many ticks apart the client repeats its Hello until a
// Welcome arrives.
const helloEvery = 16

// Step predicts one tick with input in and sends, through send, what the
// server needs: a Hello until it is accepted, then every tick the inputs it
// may lack, and while a transfer comes in, the fragments received. While
// joining, or when the unconfirmed history fills the ring, the client holds:
// it does not predict (counted in HeldTicks) and resends what the server
// lacks, so that it never overwrites history it may rewind to. send must
// not keep its argument.
func (c *Client) Step(in game.Input, send func([]byte)) error {
	// The turn's messages are in: replay once, to the present.
	turnErr := c.EndTurn()
	if turnErr != nil && !errors.Is(turnErr, ErrNonFinite) {
		return turnErr
	}
	if !c.join.joined {
		c.Stats.HeldTicks++
		if c.join.helloIn == 0 {
			c.buf.out = wire.AppendHello(c.buf.out[:0], &wire.Hello{Nonce: c.join.nonce, Echo: c.clockMs(), Mode: uint8(c.Config.Mode), Scene: c.scene.ID})
			send(c.buf.out)
			c.noteHello()
			c.join.helloIn = helloEvery
		}
		c.join.helloIn--
		return nil
	}
	ticks, held := c.Sync.turnTicks(c.Tick(), &c.hold, !c.join.waitingFor)
	if held {
		c.Stats.HeldTicks++
	}
	for ; ticks > 0; ticks-- {
		if c.join.waitingFor || c.InFlight() >= tick.RingSize-1 {
			if !c.join.waitingFor {
				c.mode.ringFull(c)
			}
			c.Stats.HeldTicks++
			if c.join.waitingFor {
				c.join.waited++
			}
			break
		}
		t := c.Tick()
		rec := c.hist.recs.Put(t)
		rec.ins = c.known
		rec.ins[c.player] = in
		if ticks > 1 {
			// A jump ahead: the inputs of these ticks reach the server too
			// late for them; it holds the cube's last input, none.
			rec.ins[c.player] = 0
		}
		rec.events, rec.skip, rec.remote = rec.events[:0], false, false
		if err := c.advance(t, rec); err != nil {
			return err
		}
		c.Stats.Ticks++
		if ticks == 1 && c.Config.SyncTest > 0 {
			if err := c.syncTest(c.Tick()); err != nil {
				return err
			}
		}
	}
	nonFinite := c.checkFinite("predicting")
	// A client waiting for the transfer it asked for (after a non-finite
	// step) goes on sending its inputs, which carry the request.
	if !c.join.waitingFor || c.view.askXfer {
		if err := c.sendInputs(send); err != nil {
			return err
		}
	}
	// The Have of a transfer under way; and of the last one, whole, while
	// the client asks again: the server then knows the request is a new
	// one.
	if c.xfer.active {
		c.xfer.quiet++
	}
	if c.xfer.active || c.xfer.done && c.view.askXfer && !c.join.waitingFor {
		c.buf.out = c.xfer.appendHave(c.buf.out[:0])
		send(c.buf.out)
	}
	if c.rep.due || c.view.askXfer && c.rep.waiting(&c.xfer) {
		c.rep.due = false
		c.buf.out = c.rep.appendWant(c.buf.out[:0])
		send(c.buf.out)
	}
	if nonFinite != nil {
		return nonFinite
	}
	return turnErr
}

// advance simulates tick t from the world's state with what rec says,
// keeping the keyframe before it and the hash and the own-input chain
// after it. Replays go through here too, so that they compose each step
// exactly as the prediction did.
func (c *Client) advance(t uint32, rec *tickRec) error {
	if c.rerun.sparseKeys && tick.After(c.rerun.keysFrom, t) {
		c.hist.dropKey(t)
	} else {
		c.hist.saveKey(c.world)
	}
	mark := uint8(protocol.SkippedMark)
	if rec.skip {
		c.world.SkipTo(t + 1)
		// A skipped tick has no trace: a partial replay that meets one, or
		// a step where the prediction skipped, goes on in full.
		c.hist.dropTrace(t)
		c.rerun.following = false
	} else {
		for _, e := range rec.events {
			if err := c.scene.ApplyEvent(c.world, e); err != nil {
				return fmt.Errorf("predict: tick %d: %w", t, err)
			}
		}
		tr := c.record(t)
		if err := c.scene.Step(c.world, rec.ins[:len(c.scene.Players)]); err != nil {
			c.world.Cancel()
			return fmt.Errorf("predict: tick %d: %w", t, err)
		}
		if tr != nil {
			c.world.Amend(tr)   // what the scene's rules changed after the step (the quantiser)
			c.hist.installed(t) // in place of the one followed, if any
		}
		mark = uint8(rec.ins[c.player])
	}
	c.stepInto(t + 1)
	if c.Perturb != nil {
		c.Perturb(c.world, t, c.body)
	}
	*c.hist.hashes.Put(t + 1) = c.world.Hash()
	*c.hist.players.Put(t + 1) = c.world.Body(c.body)
	ch, ok := c.hist.chains.Get(t)
	all, okAll := c.hist.all.Get(t)
	if !ok || !okAll {
		return fmt.Errorf("predict: the input chain of tick %d is missing", t)
	}
	*c.hist.chains.Put(t + 1) = protocol.FoldInput(*ch, t, mark)
	*c.hist.all.Put(t + 1) = protocol.FoldAll(*all, t, rec.ins[:len(c.scene.Players)], rec.skip)
	return nil
}

// record sets the world up to record the step of tick t, and to follow
// the recorded one during a partial replay; it returns the trace the step
// will write, nil when the client keeps none. Full replays record traces
// too, so that the history stays whole for the partial replays after them
// (the sync test switches between the two). A partial replay that finds
// no trace of t goes on in full: its state is the whole world's at every
// tick anyway.
func (c *Client) record(t uint32) *physics.Trace {
	if c.Perturb != nil {
		// A hook changes the world behind the step: no trace can say what
		// the tick did, and one recorded earlier no longer does.
		c.hist.dropTrace(t)
		c.rerun.following = false
		return nil
	}
	if c.rerun.following {
		old, ok := c.hist.traceOf(t)
		if !ok || c.world.Follow(&c.rerun.part, old) != nil {
			c.rerun.following = false
		}
	}
	tr := c.hist.recording()
	c.world.Record(tr)
	return tr
}

// sendInputs sends the inputs the server may still lack: from the oldest
// unconfirmed tick (or just the newest input, without redundancy), with
// what the client has taken from the server.
func (c *Client) sendInputs(send func([]byte)) error {
	end := c.Tick()
	if end == c.first {
		return nil // nothing predicted yet
	}
	from := c.oldestNeeded()
	if !c.Config.Redundancy || !tick.After(end, from) {
		// Without redundancy, the newest input only. And when the server's
		// newest message is of the client's own tick (a client that stalled
		// and fell back to its server's time), no input is unconfirmed: the
		// newest goes anyway, late, with the ack; a message without inputs
		// is refused.
		from = end - 1
	}
	c.buf.window = c.buf.window[:0]
	for t := from; t != end; t++ {
		rec, ok := c.hist.recs.Get(t)
		if !ok {
			return fmt.Errorf("predict: input of tick %d is missing from the ring", t)
		}
		c.buf.window = append(c.buf.window, rec.ins[c.player])
	}
	m := wire.Input{Player: uint8(c.player), First: from, Inputs: c.buf.window, Ack: from, Base: from}
	if c.view.haveNewest {
		m.Flags |= wire.AckValid
		m.Ack, m.Base = c.view.newest, c.view.newest
		if v := c.st.views.Newest(); v != nil && !tick.After(v.Tick(), c.view.newest) {
			m.Base = v.Tick()
			m.Held = c.mode.heldViews(v)
		}
		if c.view.synced {
			m.Flags |= wire.AckInSync
		}
	}
	if c.view.askXfer {
		m.Flags |= wire.AskTransfer
	}
	c.holdForRepair()
	var first uint32
	c.buf.out, first = wire.AppendInput(c.buf.out[:0], &m)
	send(c.buf.out)
	c.Stats.InputsSent += uint64(end - first)
	c.Stats.BytesSent += uint64(len(c.buf.out))
	return nil
}

// Receive handles one message from the server. A message that does not
// decode or does not fit is counted in Stats.Rejected and dropped, and the
// error returned wraps protocol.ErrRejected; ErrRefused says the server would not
// take this client; ErrNonFinite that the replay the message started left
// a non-finite world, which the client gave up for a transfer; any other
// error is the client's own fault.
func (c *Client) Receive(b []byte) error {
	k, err := wire.Kind(b)
	if err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	switch k {
	case wire.KindWelcome:
		return c.onWelcome(b)
	case wire.KindSnapshot:
		err = c.onSnapshot(b)
	case wire.KindRelay:
		err = c.onRelay(b)
	case wire.KindFragment:
		// A transfer and a repair read the present: the turn's replay
		// so far goes first.
		if err = c.settle(false); err == nil {
			err = c.onFragment(b)
		}
	case wire.KindRepairHashes:
		if err = c.settle(false); err == nil {
			err = c.onRepairHashes(b)
		}
	default:
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "a message of kind %d, which a client does not take", k)
	}
	if err != nil || c.rerun.park.on {
		return err // a parked replay is checked at the turn's end
	}
	return c.checkFinite("replaying a server message")
}

// tickDur returns the length of a tick.
func (c *Client) tickDur() time.Duration { return tick.Duration(c.world.Config().Dt) }
