package predict

import (
	"fmt"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// clientRepair is the client's part of a repair by buckets (see
// server/server_repair.go): its own state at the repair's tick, rebuilt
// from its history when the hashes came, and its answer.
type clientRepair struct {
	answered bool   // the hashes of tick were answered
	valid    bool   // mine holds the client's state at tick
	due      bool   // the answer is to be sent with the next inputs
	all      bool   // the answer asks for the whole state
	tick     uint32 // the repair's
	whole    uint64 // the server's state's hash
	count    int    // buckets
	mask     []byte // the buckets that differ
	mine     physics.State
	now      physics.State // the world's state while mine is rebuilt
	key      physics.State // a keyframe kept while mine is rebuilt
	hashes   []uint64
	msg      wire.RepairHashes
	scr      wire.PatchScratch
}

// waiting reports whether the answer is still unheard of: no fragment of
// the repair's patch has come. The client says it again every turn until
// one does (an answer lost on the way up would cost a round trip and a
// half for the server's hashes to come again; the server takes only the
// first).
func (r *clientRepair) waiting(x *transfer) bool {
	return r.answered && !(x.tick == r.tick && (x.active || x.done))
}

// appendWant appends the answer.
func (r *clientRepair) appendWant(b []byte) []byte {
	return wire.AppendRepairWant(b, &wire.RepairWant{Tick: r.tick, All: r.all, Count: uint16(r.count), Mask: r.mask})
}

// onRepairHashes answers the hashes of a repair the client asked for:
// the buckets of its own state at the repair's tick whose hashes differ,
// or all when it cannot rebuild that state. The same hashes again (the
// answer was lost) get the same answer.
func (c *Client) onRepairHashes(b []byte) error {
	m := &c.rep.msg
	if err := wire.DecodeRepairHashes(b, m); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	if !c.join.joined || !c.view.askXfer {
		c.Stats.StaleStates++ // not asked for, or already taken
		return nil
	}
	if int(m.Bodies) != c.world.NumBodies() {
		return c.Stats.Rejected.Reject(protocol.RejectShape, "repair of %d bodies, the world has %d", m.Bodies, c.world.NumBodies())
	}
	r := &c.rep
	if r.answered && r.tick == m.Tick {
		r.due = true
		return nil
	}
	r.answered, r.due, r.tick, r.whole, r.count = true, true, m.Tick, m.Whole, len(m.Hashes)
	// A client waiting for a state (its world went non-finite) has none
	// of its own to patch.
	r.valid = !c.join.waitingFor && c.stateAt(m.Tick, &r.mine)
	r.all = !r.valid
	r.mask = append(r.mask[:0], make([]byte, (r.count+7)/8)...)
	if r.all {
		return nil
	}
	r.hashes = wire.BucketHashes(r.hashes[:0], &r.mine, int(m.Size))
	for k, h := range r.hashes {
		if h != m.Hashes[k] {
			r.mask[k/8] |= 1 << (k % 8)
		}
	}
	return nil
}

// stateAt puts the client's own state at tick t in dst, rebuilt from its
// history, and leaves the world as it was; false if t is beyond what the
// history holds.
func (c *Client) stateAt(t uint32, dst *physics.State) bool {
	now := c.Tick()
	if tick.After(t, now) || now-t >= tick.RingSize-1 {
		return false
	}
	if t == now {
		c.world.Save(dst)
		return true
	}
	if _, ok := c.hist.recs.Get(t); !ok {
		return false
	}
	c.world.Save(&c.rep.now)
	err := c.rebuild(t)
	if err != nil {
		err = c.rebuildBefore(t)
	}
	if err == nil {
		c.world.Save(dst)
	}
	c.world.Load(&c.rep.now) // the world's own save
	c.rerun.partReady, c.rerun.following = false, false
	return err == nil
}

// takePatch puts in s the client's state at the transfer's tick patched
// with the server's buckets, and reports whether it is the server's
// state; if not, the client asks for the whole state.
func (c *Client) takePatch(s *wire.TransferState) (bool, error) {
	x, r := &c.xfer, &c.rep
	if !r.valid || r.tick != x.tick {
		c.Stats.StaleStates++ // a patch against a state the client no longer holds
		return false, nil
	}
	if err := wire.DecodePatch(x.raw, s, &r.mine, maxContacts, &r.scr); err != nil {
		return false, c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	if s.State.Hash() != r.whole {
		c.Stats.PatchMismatches++
		r.valid, r.all, r.due = false, true, true
		// The patch is not a transfer the client put together: its Have
		// must not go on saying so. The server sends the whole state under
		// the same tick, and a stale all-bits Have of the patch would mark
		// it received (same fragment count) or be refused (another).
		x.done = false
		return false, nil
	}
	c.Stats.Patches++
	return true, nil
}

// holdForRepair keeps the history a repair needs: from the moment the
// client asks, the keyframes from its oldest needed tick on stay (the
// repair's tick, the server's when the request arrives, comes after it)
// until the repair's hashes are answered. From then on the repair has
// the client's state at its tick (a copy, mine), and a later repair is of
// a tick no older than the client's newest snapshot: the hold follows
// that, as the history does without a repair. (Held from the ask to the
// end, a repair of the cubes scene on the outage preset kept 60
// keyframes, 20 MB.)
func (c *Client) holdForRepair() {
	switch {
	case !c.view.askXfer:
		c.hist.holding = false
	case !c.hist.holding:
		c.hist.holding, c.hist.hold = true, c.oldestNeeded()
	case c.rep.answered && tick.After(c.oldestNeeded(), c.hist.hold):
		c.hist.hold = c.oldestNeeded()
	}
	// The traces from the repair's tick on, for its partial replay, as
	// long as they fit the budget.
	c.hist.traceHolding = c.view.askXfer && c.rep.answered && c.rep.valid && c.traced() && !c.Config.FullRepairs &&
		!(c.hist.spilled && c.hist.spilledAt == c.rep.tick)
	c.hist.traceHold = c.rep.tick
}

// rebuildBefore rebuilds the state of tick t from the keyframe of the span
// before t's, in full: for a t whose own span's keyframe is newer than t
// (an anchor: a state the client took from the server after t, in the
// same span). The replay goes through the keyframe of t's span, which is
// put back as it was.
func (c *Client) rebuildBefore(t uint32) error {
	span := t - t%KeyEvery
	k, ok := c.hist.keyBefore(span - 1)
	own := c.hist.key(t)
	if !ok || own.state == nil || !own.valid {
		return fmt.Errorf("%w: no keyframe before tick %d's span", errNoHistory, t)
	}
	c.rep.key.CopyFrom(own.state)
	ownTick := own.tick
	c.world.Load(k.state) // the world's own save, unchanged since
	err := c.replayFull(k.tick, t)
	own = c.hist.key(t)
	if own.state == nil {
		own.state = new(physics.State)
	}
	own.state.CopyFrom(&c.rep.key)
	own.tick, own.valid = ownTick, true
	return err
}

// prepareRepair sets up the replay of a transfer or a patch, the state s
// of tick t, to follow only the bodies where s differs from the client's
// own state at t and those they reach, and reports whether it could. A
// repair mends a world that was right but for a few buckets, so its
// replay, up to the ring's length after an outage, re-simulates those and
// what they touch instead of the whole world, with the same bits
// (physics.World.Follow). The client's own state at t is rebuilt from the
// history, or, when the keyframes before t have gone, the one the repair's
// hashes were answered with (mine: the repair kept it), if the history
// has not changed at t since.
// False: the client replays in full, from whatever state the world holds
// (it takes s whole anyway).
func (c *Client) prepareRepair(t uint32, s *physics.State, mine bool) bool {
	if !c.traced() || c.Config.FullRepairs {
		c.markUnknownJump(t)
		return false
	}
	err := c.rebuild(t)
	if err != nil {
		err = c.rebuildBefore(t) // t is past an anchor, in its span
	}
	if err != nil || c.world.Tick() != t {
		c.rerun.partReady, c.rerun.following = false, false
		if !mine || !c.mineAt(t) {
			c.markUnknownJump(t)
			return false
		}
		c.world.Load(&c.rep.mine) // the world's own save
	}
	c.markJump(t, s)
	c.preparePartial(s)
	return true
}

// mineAt reports whether the repair's copy of the client's state (mine)
// is the history's state at tick t: taken at t, with the hash the history
// holds for t, and no jump there since.
func (c *Client) mineAt(t uint32) bool {
	r := &c.rep
	if r.mine.Tick != t {
		return false
	}
	if j, ok := c.hist.jumps.Get(t); ok && j.valid {
		return false
	}
	h, ok := c.hist.hashes.Get(t)
	return ok && *h == r.mine.Hash()
}
