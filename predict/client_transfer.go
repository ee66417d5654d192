package predict

import (
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// transfer is a whole server state arriving in fragments.
type transfer struct {
	active bool
	tick   uint32
	count  int
	size   int
	have   int
	got    []byte // bitmap of the fragments received
	data   []byte // as it travels: compressed
	raw    []byte // once put together: the transfer's bytes
	unz    wire.Decompressor
	done   bool   // the transfer of tick was put together: a client asking again says so (its Have, whole)
	want   uint32 // joining: the tick the Welcome announced
	onlyIt bool   // take only the transfer of want
	quiet  int    // the client's turns since a piece of this transfer last arrived
	state  wire.TransferState
}

// expect makes the transfer take only the state of tick t (a join).
func (x *transfer) expect(t uint32) { x.want, x.onlyIt = t, true }

// begin starts putting together the transfer of f.
func (x *transfer) begin(f *wire.Fragment) {
	x.active, x.done, x.tick, x.count, x.size, x.have, x.quiet = true, false, f.Tick, int(f.Count), int(f.Size), 0, 0
	x.got = append(x.got[:0], make([]byte, (x.count+7)/8)...)
	x.data = append(x.data[:0], make([]byte, x.size)...)
}

// appendHave appends the Have message for the transfer under way.
func (x *transfer) appendHave(b []byte) []byte {
	return wire.AppendHave(b, &wire.Have{Tick: x.tick, Count: uint16(x.count), Got: x.got})
}

// onFragment puts a fragment in place and, when the transfer is whole,
// takes it.
func (c *Client) onFragment(b []byte) error {
	if err := wire.DecodeFragment(b, &c.buf.frag); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	f, x := &c.buf.frag, &c.xfer
	switch {
	case !c.join.joined:
		c.Stats.StaleStates++
		return nil
	case x.onlyIt && f.Tick != x.want:
		c.Stats.StaleStates++
		return nil
	case !x.onlyIt && !c.view.askXfer:
		c.Stats.StaleStates++ // not asked for, or already taken
		return nil
	case !x.onlyIt && !c.join.waitingFor && tick.After(f.Tick, c.Tick()):
		// A state ahead of the prediction: takeTransfer could not replay
		// from it, and taking its pieces would hold off the real one.
		c.Stats.StaleStates++
		return nil
	}
	if x.done && x.tick == f.Tick {
		return nil // a copy of a fragment of the transfer taken
	}
	if !x.active || x.tick != f.Tick {
		// An older transfer than the one under way is a copy late on the
		// way, unless the one under way has stalled: a server that began
		// a transfer and sends no more of it (one gone wrong, or hostile)
		// must not hold off the one that comes.
		if x.active && tick.After(x.tick, f.Tick) && x.quiet < transferStall {
			c.Stats.StaleStates++
			return nil
		}
		x.begin(f)
	}
	if int(f.Count) != x.count || int(f.Size) != x.size {
		return c.Stats.Rejected.Reject(protocol.RejectShape, "fragment of tick %d: %d pieces of %d bytes, the transfer has %d of %d", f.Tick, f.Count, f.Size, x.count, x.size)
	}
	i := int(f.Index)
	if x.got[i/8]&(1<<(i%8)) != 0 {
		return nil // a duplicate
	}
	copy(x.data[i*wire.FragmentBytes:], f.Data)
	x.got[i/8] |= 1 << (i % 8)
	x.quiet = 0
	if x.have++; x.have < x.count {
		return nil
	}
	x.active, x.done = false, true
	return c.takeTransfer()
}

// transferStall is how many of the client's turns (2 s at 64 Hz) a
// transfer under way may go without a new piece before an older one may
// take its place. The server sends every piece a Have says is missing
// within a round trip or two, so a real transfer never stalls this long
// on a link a player can play on.
const transferStall = 128

// takeTransfer takes a whole transfer: the state the client starts from
// when joining, or the server's state it rewinds to and replays from.
func (c *Client) takeTransfer() error {
	x := &c.xfer
	s := &x.state
	var err error
	if x.raw, err = x.unz.Decompress(x.raw[:0], x.data); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "transfer of tick %d: %v", x.tick, err)
	}
	if wire.IsPatch(x.raw) {
		if ok, err := c.takePatch(s); !ok {
			return err
		}
	} else if err := wire.DecodeTransfer(x.raw, s, c.world.NumBodies(), maxContacts); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	if err := c.world.Check(&s.State); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectShape, "transfer of tick %d: %v", x.tick, err)
	}
	if err := c.checkBodies("transfer", x.tick, func(yield func(int32, *physics.BodyState) bool) {
		for i := range s.State.Bodies {
			if !yield(int32(i), &s.State.Bodies[i]) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if err := c.checkContacts("transfer", x.tick, s.State.Contacts); err != nil {
		return err
	}
	X := s.State.Tick
	if X != x.tick {
		return c.Stats.Rejected.Reject(protocol.RejectShape, "transfer labelled %d holds the state of tick %d", x.tick, X)
	}
	c.Stats.Transfers++
	mine := c.rep.valid && c.rep.tick == X // the repair's copy of the client's state at X
	c.rep.answered, c.rep.valid = false, false
	if c.join.waitingFor {
		if err := c.world.Restore(&s.State); err != nil {
			return err
		}
		c.join.waitingFor, x.onlyIt, c.view.askXfer = false, false, false
		c.start(X, s.Chain, s.AllChain, s.Events, s.Skipped)
		c.Sync.start(c.join.rtt, c.tickDur(), int(c.join.waited))
		return nil
	}
	now := c.Tick()
	if tick.After(X, now) || now-X >= tick.RingSize-1 {
		c.Stats.StaleStates++ // a state the client cannot replay from; it asks again
		return nil
	}
	if _, ok := c.hist.recs.Get(X); !ok && X != now {
		c.Stats.StaleStates++
		return nil
	}
	if p := c.in.pending; p != nil {
		// The field diff of the nondeterminism found earlier, at the tick
		// of the transfer.
		if err := c.rebuild(X); err != nil {
			return err
		}
		p.Predicted, p.Server = c.keep(c.world.State()), c.keep(&s.State)
		p.DiffTick = X
		c.in.pending = nil
		if c.OnDiff != nil {
			c.OnDiff(p)
		}
	}
	before := c.world.Body(c.body)
	if c.Wall != nil {
		c.rerun.rewindFrom = c.Wall()
	}
	partial := c.prepareRepair(X, &s.State, mine)
	if err := c.world.Restore(&s.State); err != nil {
		return err
	}
	c.repair(X, s.Chain, s.AllChain, s.Events, s.Skipped)
	// Out of step from here on only for what the repair could not say
	// (server events after X, whose bodies the snapshots bring), not for
	// the time the repair took: a client still not the server's
	// repairAfter ticks after its newest snapshot asks again.
	c.view.lastSynced = c.view.newest
	if err := c.replaySparse(X, now, partial); err != nil {
		return err
	}
	c.countReplay()
	after := c.world.Body(c.body)
	c.report.teleport = c.report.teleport.Add(after.Pos.Sub(before.Pos))
	c.Smooth.Correct(before.Pos, after.Pos, before.Rot, after.Rot)
	return nil
}

// replaySparse replays a transfer from its tick from to now, partially
// when prepareRepair set the replay up (else in full), keeping no keyframe
// of a tick no rewind can need: before the newest snapshot's span, less
// the sync test's reach. A repair that arrives late replays up to the
// ring's length (30 s on the outage preset), and a keyframe every
// KeyEvery ticks of that (about 400 kB each in the cubes scene) held
// 70 MB until the next snapshot released them.
func (c *Client) replaySparse(from, now uint32, partial bool) error {
	keep := c.oldestNeeded()
	keep -= keep%KeyEvery + uint32(c.Config.SyncTest) + KeyEvery
	c.rerun.keysFrom, c.rerun.sparseKeys = keep, true
	ticks, bodies := c.Stats.Resimulated, c.Stats.ResimulatedBodies
	var err error
	if partial {
		err = c.replay(from, now)
	} else {
		err = c.replayFull(from, now)
	}
	c.rerun.sparseKeys = false
	c.Stats.RepairTicks += c.Stats.Resimulated - ticks
	c.Stats.RepairBodies += c.Stats.ResimulatedBodies - bodies
	if !c.rerun.lastFull {
		c.Stats.PartialRepairs++
	}
	return err
}

// maxContacts bounds the contacts of a state a client takes (and the
// allocation is bounded by the bytes that arrived, too).
const maxContacts = 1 << 20

// repair makes the world as it stands (a transfer's) the server's state at
// tick t, a transfer the
// client asked for to mend its history, before it replays from t. Unlike
// start it keeps the views (the server goes on sending snapshots against
// them while the transfer is on its way) and what it took from newer
// messages: the transfer is often older than the newest snapshot.
func (c *Client) repair(t uint32, chain, all uint64, events, skipped uint32) {
	c.view.synced, c.view.askXfer = true, false
	if c.mode.eventsByCount() && tick.After(c.view.newest, t) && (events != c.view.events || skipped != c.view.skipped) {
		// Server events between the transfer and the newest snapshot: in
		// state sync the client knows only their count, so its replay
		// from t cannot give the server's state at newest.
		c.view.synced = false
	}
	c.hist.anchor(c.world) // the keyframe of t's span held the old history
	*c.hist.hashes.Put(t) = c.world.Hash()
	*c.hist.chains.Put(t) = chain
	*c.hist.all.Put(t) = all
	*c.hist.players.Put(t) = c.world.Body(c.body)
	if tick.After(t, c.view.newest) {
		c.view.newest = t
		c.view.events, c.view.skipped = events, skipped
		c.view.newestBody = c.world.Body(c.body)
	}
	if tick.After(t, c.in.confirmed) {
		c.in.confirmed = t
	}
}
