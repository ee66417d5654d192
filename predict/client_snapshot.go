package predict

import (
	"errors"
	"math"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// repairAfter is how long a client in state sync stays out of step (its
// state not known to be the server's) before it asks for a transfer.
const repairAfter = 128

// onSnapshot compares a state-sync snapshot with the prediction for its tick
// and, when they differ, puts the server's bodies (and contacts, when they
// come) into the predicted state of that tick and replays the buffered
// ticks since.
func (c *Client) onSnapshot(b []byte) error {
	if err := c.mode.onSnapshot(c, b); err != nil {
		return err
	}
	return c.takeHeld()
}

// onSnapshot takes a snapshot in state sync.
func (*clientState) onSnapshot(c *Client, b []byte) error { return c.snapshot(b, true) }

// onSnapshot refuses a snapshot in input sync.
func (*clientInputs) onSnapshot(c *Client, _ []byte) error {
	if !c.Joined() {
		c.Stats.StaleStates++
		return nil
	}
	return c.Stats.Rejected.Reject(protocol.RejectShape, "a snapshot, but the client is in input sync")
}

// snapshot takes snapshot b; mayDefer lets it hold b back for the relay
// that tells the other players' inputs up to its tick (see awaitsRelay).
func (c *Client) snapshot(b []byte, mayDefer bool) error {
	if !c.Joined() {
		c.Stats.StaleStates++
		return nil
	}
	T, B, acks, err := wire.SnapshotBase(b)
	if err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	if !tick.After(T, c.view.newest) || tick.After(c.first, T) {
		c.Stats.StaleStates++
		return nil
	}
	if tick.After(T, c.Tick()) {
		return c.early(T, "a snapshot")
	}
	held := c.st.views.Get(B)
	if held == nil {
		c.Stats.StaleStates++ // a baseline the client no longer holds: a later snapshot will use a newer one
		return nil
	}
	err = c.takeSnapshot(b, T, held, acks, mayDefer)
	if errors.Is(err, protocol.ErrRejected) {
		// A snapshot the client cannot take: when the two ends no longer
		// agree on the views (a mask naming a view the client does not
		// hold, deltas that decode against another reference into states
		// the client refuses), every later one may fail too. If it goes
		// on, the client asks for the whole state rather than drift.
		c.outOfStep(T)
	}
	return err
}

// takeSnapshot decodes snapshot b of tick T against baseline view held
// and the views acks names, checks it, and compares it with the
// prediction.
func (c *Client) takeSnapshot(b []byte, T uint32, held *protocol.View, acks uint64, mayDefer bool) error {
	base, _, missing := c.st.views.Baseline(held, acks)
	if base == nil {
		return c.Stats.Rejected.Reject(protocol.RejectTick, "snapshot of tick %d names view %d, which the client does not hold", T, missing)
	}
	c.st.server.Bodies = base.Fill(c.st.server.Bodies)
	if err := wire.DecodeSnapshot(b, &c.st.snap, c.st.server.Bodies); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	m := &c.st.snap
	for _, u := range m.Bodies {
		if c.world.Static(int(u.Index)) {
			return c.Stats.Rejected.Reject(protocol.RejectShape, "snapshot of tick %d carries body %d, which is static", T, u.Index)
		}
	}
	if err := c.checkBodies("snapshot", T, func(yield func(int32, *physics.BodyState) bool) {
		for i := range m.Bodies {
			if !yield(m.Bodies[i].Index, &m.Bodies[i].State) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if err := c.checkContacts("snapshot", T, m.Contacts); err != nil {
		return err
	}
	if err := c.reach(T); err != nil { // a rewind of this turn replays on through T
		return err
	}
	predHash, ok := c.hist.hashes.Get(T)
	if !ok {
		return c.Stats.Rejected.Reject(protocol.RejectTick, "snapshot of tick %d, which the client no longer holds", T)
	}
	if mayDefer && *predHash != m.Hash && c.awaitsRelay(T, m.AllChain, m.Events) {
		c.holdSnapshot(b, T)
		return nil
	}
	for _, u := range m.Bodies {
		c.st.server.Bodies[u.Index] = u.State
	}
	complete := m.Flags&wire.Complete != 0
	c.report.compared = Compared{Tick: T, ClientHash: *predHash, ServerHash: m.Hash}
	c.Sync.sample(m.Heard, T, m.HeardInput)
	if *predHash != m.Hash {
		if err := c.snapshotMismatch(m, complete); err != nil {
			return err
		}
	} else {
		c.view.synced = true
		// The server's state, predicted: a repair asked for is no longer
		// needed (the snapshots mended the client). The server counts
		// the repair under way taken once the client stops asking.
		if !c.join.waitingFor {
			c.view.askXfer = false
		}
	}
	pred, _ := c.hist.players.Get(T)
	c.report.lastErr = math.Sqrt(bodyError(pred, &c.st.server.Bodies[c.body]).Pos2)
	c.Stats.StatesReceived++
	c.Stats.BodiesReceived += uint64(len(m.Bodies))
	if !complete {
		c.Stats.Incomplete++
	}
	if c.view.synced {
		c.view.lastSynced = T
	} else {
		c.outOfStep(T)
	}
	c.view.newest, c.view.haveNewest = T, true
	c.view.newestBody = c.st.server.Bodies[c.body]
	c.view.events, c.view.skipped = m.Events, m.Skipped
	c.adoptChain(T, c.Tick(), m.Chain, m.AllChain)
	c.st.patchd = c.st.patchd[:0]
	for _, u := range m.Bodies {
		c.st.patchd = append(c.st.patchd, u.Index)
	}
	c.st.views.Derive(T, base, c.st.patchd, c.st.server.Bodies)
	c.hist.release(c.oldestNeeded())
	return nil
}

// outOfStep asks for a transfer when the client has not been known to be
// the server's for repairAfter ticks, at tick t of a snapshot.
func (c *Client) outOfStep(t uint32) {
	if c.Config.Corrections && t-c.view.lastSynced >= repairAfter {
		c.view.askXfer = true
	}
}

// snapshotMismatch handles a snapshot whose hash differs from the
// prediction: classify, and unless corrections are off, patch and replay.
// c.st.server.Bodies holds the snapshot's view.
func (c *Client) snapshotMismatch(m *wire.Snapshot, complete bool) error {
	T := m.Tick
	chain, _ := c.hist.chains.Get(T)
	all, _ := c.hist.all.Get(T)
	mp := &c.report.last
	*mp = Misprediction{Tick: T, From: c.view.newest, DiffTick: T}
	switch {
	case m.Events != c.view.events:
		mp.Kind = KindServer
	case m.Skipped != c.view.skipped || chain == nil || *chain != m.Chain:
		mp.Kind = KindInput
	case all == nil || *all != m.AllChain || c.remoteWrong(c.view.newest, T):
		mp.Kind = KindRemote
	case c.view.synced:
		mp.Kind = KindNondeterminism
	default:
		mp.Kind = KindUnverified
	}
	now := c.Tick()
	before := c.world.Body(c.body)
	if !c.Config.Corrections {
		pred, _ := c.hist.players.Get(T)
		mp.Error = bodyError(pred, &c.st.server.Bodies[c.body])
		mp.Corrected = mp.Error.Exceeds(c.Config.Thresholds)
		c.Stats.Unapplied++
		c.view.synced = false
		if mp.Kind == KindNondeterminism && c.KeepStates {
			// The report wants the whole predicted state: rebuild it and
			// come back.
			if err := c.rebuild(T); err != nil {
				return err
			}
			c.st.state.CopyFrom(c.world.State())
			c.patch(&c.st.state, m, complete)
			mp.Predicted, mp.Server = c.keep(c.world.State()), c.keep(&c.st.state)
			if err := c.replayLater(T, now); err != nil {
				return err
			}
		}
		c.mispredicted(mp)
		return nil
	}
	// The present, unless the turn's replay has already moved the world
	// back: a snapshot that corrects nothing puts it back as it was.
	present := !c.rerun.park.on && T != now
	if present {
		c.world.Save(&c.st.present)
	}
	if err := c.rebuild(T); err != nil {
		if errors.Is(err, errNoHistory) {
			return c.Stats.Rejected.Reject(protocol.RejectTick, "snapshot of tick %d: %v", T, err)
		}
		return err
	}
	c.st.state.CopyFrom(c.world.State()) // the prediction at T
	patched := c.patch(&c.st.state, m, complete)
	mp.Error = bodiesError(c.world.State(), &c.st.state, patched)
	mp.Corrected = mp.Error.Exceeds(c.Config.Thresholds)
	if err := c.world.Check(&c.st.state); err != nil {
		if rerr := c.replayLater(T, now); rerr != nil {
			return rerr
		}
		return c.Stats.Rejected.Reject(protocol.RejectShape, "snapshot of tick %d: %v", T, err)
	}
	if !mp.Corrected && !c.Config.QuietResync {
		c.view.synced = false // a difference below the thresholds, left alone
		if err := c.replayLater(T, now); err != nil {
			return err
		}
		c.mispredicted(mp)
		return nil
	}
	if present && mp.Kind != KindNondeterminism && c.st.state.Hash() == c.world.Hash() {
		return c.confirmed(m, mp, complete)
	}
	if mp.Kind == KindNondeterminism {
		mp.Predicted, mp.Server = c.keep(c.world.State()), c.keep(&c.st.state)
	}
	c.noteCorrection(T, &c.st.state)
	c.markJump(T, &c.st.state)
	c.preparePartial(&c.st.state)
	c.world.Load(&c.st.state) // Check took it above
	// The corrected state is where the ticks after T now start from: a
	// later rebuild to one of them starts from it too, not from the
	// keyframe before, which would replay the ticks before T without the
	// correction and give a state the client never predicted.
	c.hist.anchor(c.world)
	c.view.synced = c.world.Hash() == m.Hash
	if !c.view.synced && complete && m.Flags&wire.ContactsComplete != 0 {
		c.view.askXfer = true // everything said to be there, and still not the server's state
	}
	*c.hist.chains.Put(T) = m.Chain
	*c.hist.all.Put(T) = m.AllChain
	if err := c.replayLater(T, now); err != nil {
		return err
	}
	c.corrected(mp, before, int(now-T))
	c.mispredicted(mp)
	return nil
}

// confirmed takes a snapshot whose hash differs from the prediction at its
// tick but whose bodies and contacts are all as predicted: the world
// patched with it is the prediction, so a replay would give the present
// again, bit for bit. The world goes back to the present (kept in
// c.st.present before the rebuild) and nothing is replayed; the client
// is still not known to be the server's, and asks for the state as a
// correction would.
func (c *Client) confirmed(m *wire.Snapshot, mp *Misprediction, complete bool) error {
	c.view.synced = false
	if complete && m.Flags&wire.ContactsComplete != 0 {
		c.view.askXfer = true // everything said to be there, and still not the server's state
	}
	*c.hist.chains.Put(m.Tick) = m.Chain
	*c.hist.all.Put(m.Tick) = m.AllChain
	c.world.Load(&c.st.present) // the world's own save
	c.rerun.partReady, c.rerun.following = false, false
	c.Stats.Confirmed++
	c.mispredicted(mp)
	return nil
}

// patch puts the snapshot's view into s (the whole view when the snapshot
// is complete, else the bodies it carries) and the contacts it carries, and
// returns the bodies patched.
func (c *Client) patch(s *physics.State, m *wire.Snapshot, complete bool) []int32 {
	c.st.patchd = c.st.patchd[:0]
	if complete {
		for i := range s.Bodies {
			if !c.world.Static(i) {
				s.Bodies[i] = c.st.server.Bodies[i]
				c.st.patchd = append(c.st.patchd, int32(i))
			}
		}
	} else {
		for _, u := range m.Bodies {
			s.Bodies[u.Index] = u.State
			c.st.patchd = append(c.st.patchd, u.Index)
		}
	}
	if m.Flags&wire.HasContacts != 0 {
		c.patchContacts(s, m, m.Flags&wire.ContactsComplete != 0)
	}
	return c.st.patchd
}

// patchContacts replaces s's contacts with the snapshot's where it has them.
// With complete contacts (every entry of the islands of the bodies sent),
// every entry of s that involves a body of those islands goes; otherwise
// only the entries with the same keys.
func (c *Client) patchContacts(s *physics.State, m *wire.Snapshot, complete bool) {
	if cap(c.st.mark) < len(s.Bodies) {
		c.st.mark = make([]bool, len(s.Bodies))
	}
	mark := c.st.mark[:len(s.Bodies)]
	clear(mark)
	if complete {
		for _, u := range m.Bodies {
			mark[u.Index] = true
		}
		for _, k := range m.Contacts {
			if k.A >= 0 && int(k.A) < len(mark) {
				mark[k.A] = true
			}
			if k.B >= 0 && int(k.B) < len(mark) {
				mark[k.B] = true
			}
		}
	}
	gone := func(k *physics.ContactState) bool {
		if complete {
			return (k.A >= 0 && int(k.A) < len(mark) && mark[k.A]) || (k.B >= 0 && int(k.B) < len(mark) && mark[k.B])
		}
		for j := range m.Contacts {
			if m.Contacts[j].A == k.A && m.Contacts[j].B == k.B && m.Contacts[j].Feature == k.Feature {
				return true
			}
		}
		return false
	}
	kept := c.st.contacts[:0]
	for i := range s.Contacts {
		if !gone(&s.Contacts[i]) {
			kept = append(kept, s.Contacts[i])
		}
	}
	// Merge the two key-ordered lists.
	out := s.Contacts[:0]
	i, j := 0, 0
	for i < len(kept) || j < len(m.Contacts) {
		if j == len(m.Contacts) || (i < len(kept) && physics.ContactKeyLess(&kept[i], &m.Contacts[j])) {
			out = append(out, kept[i])
			i++
		} else {
			out = append(out, m.Contacts[j])
			j++
		}
	}
	s.Contacts = out
	c.st.contacts = kept
}

// bodiesError returns the largest error between a and b over the bodies
// listed (field by field maxima).
func bodiesError(a, b *physics.State, bodies []int32) Error {
	var e Error
	for _, i := range bodies {
		x := bodyError(&a.Bodies[i], &b.Bodies[i])
		e.Pos2, e.Rot = max(e.Pos2, x.Pos2), max(e.Rot, x.Rot)
		e.Vel2, e.AngVel2 = max(e.Vel2, x.Vel2), max(e.AngVel2, x.AngVel2)
	}
	return e
}

// remoteWrong reports whether a relay said, for a tick in [from, to), that
// another player's input was not the one the client predicted.
func (c *Client) remoteWrong(from, to uint32) bool {
	for t := from; t != to; t++ {
		if rec, ok := c.hist.recs.Get(t); ok && rec.remote {
			return true
		}
	}
	return false
}

// early handles a server message about a tick the client has not reached:
// at the start, before time sync has put the client ahead of the server, a
// server's message can be; it is ignored (counted in Early). One from
// further ahead than any client can be behind is refused.
func (c *Client) early(t uint32, what string) error {
	if t-c.Tick() >= tick.RingSize {
		return c.Stats.Rejected.Reject(protocol.RejectTick, "%s of tick %d, but the client has only reached tick %d", what, t, c.Tick())
	}
	c.Stats.Early++
	if c.Joined() {
		c.Sync.behind(t-c.Tick(), c.tickDur())
	}
	return nil
}
