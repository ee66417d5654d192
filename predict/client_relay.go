package predict

import (
	"errors"
	"math"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// onRelay takes what the server applied for a run of ticks (input sync):
// the history becomes the server's for them; if it differs from what the
// client predicted with, the client rolls back to the first tick it got
// wrong and replays; then the hash after the run must be the server's.
func (c *Client) onRelay(b []byte) error {
	if !c.Joined() {
		c.Stats.StaleStates++
		return nil
	}
	if err := wire.DecodeRelay(b, &c.in.relay); err != nil {
		return c.Stats.Rejected.Reject(protocol.RejectMalformed, "%v", err)
	}
	m := &c.in.relay
	if m.Players != len(c.scene.Players) {
		return c.Stats.Rejected.Reject(protocol.RejectShape, "a relay for %d players, the scene has %d", m.Players, len(c.scene.Players))
	}
	return c.mode.onRelay(c, m)
}

// onRelay takes, in state sync, what a relay says of the other players'
// inputs and of the server's events.
func (*clientState) onRelay(c *Client, m *wire.Relay) error {
	if err := c.remoteInputs(m); err != nil {
		return err
	}
	return c.takeHeld()
}

// onRelay takes, in input sync, the run of ticks the server applied.
func (*clientInputs) onRelay(c *Client, m *wire.Relay) error {
	c.Sync.sample(m.Heard, m.First+uint32(m.Count), m.HeardInput)
	end := m.First + uint32(m.Count)
	if !tick.After(end, c.in.confirmed) || tick.After(m.First, c.in.confirmed) {
		c.Stats.StaleStates++ // old news, or a gap the server will fill from the client's ack
		return nil
	}
	if tick.After(end, c.Tick()) {
		return c.early(end, "a relay")
	}
	for _, e := range m.Events {
		if err := c.scene.CheckEvent(e.Event); err != nil {
			return c.Stats.Rejected.Reject(protocol.RejectShape, "%v", err)
		}
		if err := c.bounds.CheckEvent(e.Event); err != nil {
			return c.Stats.Rejected.Reject(protocol.RejectBounds, "relay of ticks %d to %d: %v", m.First, m.First+uint32(m.Count), err)
		}
	}
	from := c.in.confirmed
	first, kind, found := c.takeRelay(m, from, end)
	if t, ok := c.extrapolate(end); ok && !found {
		first, kind, found = t, KindRemote, true
	}
	c.in.confirmed = end
	c.Stats.StatesReceived++
	now := c.Tick()
	predicted, _ := c.hist.players.Get(end)
	before := c.world.Body(c.body)
	beforePlayer := *predicted
	mp := &c.report.last
	if found {
		*mp = Misprediction{Tick: end, From: from, Kind: kind}
		if c.Config.Corrections {
			if err := c.rebuild(first); err != nil {
				if errors.Is(err, errNoHistory) {
					// The relay is taken but the ticks cannot be replayed:
					// only the server's whole state mends that.
					c.view.synced, c.view.askXfer = false, true
					return c.Stats.Rejected.Reject(protocol.RejectTick, "relay from tick %d: %v", m.First, err)
				}
				return err
			}
			if err := c.replayLater(first, now); err != nil {
				return err
			}
			if err := c.reach(end); err != nil {
				return err
			}
			after, _ := c.hist.players.Get(end)
			mp.Error = bodyError(&beforePlayer, after)
			mp.Corrected = mp.Error.Exceeds(c.Config.Thresholds)
			c.corrected(mp, before, int(now-first))
		} else {
			c.Stats.Unapplied++
		}
		c.mispredicted(mp)
	}
	if err := c.reach(end); err != nil { // this turn's rewind, parked before end
		return err
	}
	h, _ := c.hist.hashes.Get(end)
	c.report.compared = Compared{Tick: end, ClientHash: *h, ServerHash: m.Hash}
	switch {
	case *h == m.Hash:
		c.view.synced = true
	case found && !c.Config.Corrections:
		c.view.synced = false // the client did not take the server's inputs: no wonder
	default:
		// The server's inputs and events from a known state, and still
		// another hash: the engine broke a determinism rule, unless the
		// client's state at the start was not the server's.
		*mp = Misprediction{Tick: end, From: from, Kind: KindUnverified}
		if c.view.synced {
			mp.Kind = KindNondeterminism
			if c.in.pending == nil && c.KeepStates {
				p := *mp
				c.in.pending = &p // its field diff comes with the transfer
			}
		}
		c.view.synced = false
		c.view.askXfer = c.Config.Corrections
		c.mispredicted(mp)
	}
	after, _ := c.hist.players.Get(end)
	c.report.lastErr = math.Sqrt(bodyError(&beforePlayer, after).Pos2)
	c.view.newest, c.view.haveNewest = end, true
	c.view.newestBody = *after
	c.hist.release(c.oldestNeeded())
	return nil
}

// remoteInputs takes, in state sync, what a relay says of the other
// players' inputs and of the server's events (a player joining or leaving,
// a nudge): the client predicts the others with these inputs from now on,
// applies the events at their ticks as the server did, marks the ticks
// where it had predicted the inputs wrong (so that, with corrections off,
// a snapshot that disagrees there is put down to the other players,
// KindRemote) and, with corrections on, replays from the first changed
// tick since its newest snapshot (refresh). Without the events, a client
// learnt of a join only from the snapshots, which do not carry the new
// cube's contacts: it stayed out of step for about a second after each.
func (c *Client) remoteInputs(m *wire.Relay) error {
	end := m.First + uint32(m.Count)
	if tick.After(end, c.Tick()) {
		return c.early(end, "a relay")
	}
	for _, e := range m.Events {
		if err := c.scene.CheckEvent(e.Event); err != nil {
			return c.Stats.Rejected.Reject(protocol.RejectShape, "%v", err)
		}
		if err := c.bounds.CheckEvent(e.Event); err != nil {
			return c.Stats.Rejected.Reject(protocol.RejectBounds, "relay of ticks %d to %d: %v", m.First, m.First+uint32(m.Count), err)
		}
	}
	first, found, kind := uint32(0), false, KindRemote
	newestRelay := !c.st.haveRelay || !tick.After(c.st.relayEnd, end) // not one overtaken by a later relay
	if !c.st.haveRelay || tick.After(end, c.st.relayEnd) {
		c.st.relayEnd, c.st.haveRelay = end, true
	}
	c.st.relayAt = c.Tick()
	ei := 0
	for t := m.First; t != end; t++ {
		off := int(t - m.First)
		e0 := ei
		for ei < len(m.Events) && int(m.Events[ei].Offset) == off {
			ei++
		}
		rec, ok := c.hist.recs.Get(t)
		if !ok {
			continue // before the client's history, or already gone
		}
		changed, events := false, false
		if !sameEvents(rec.events, m.Events[e0:ei]) {
			rec.events = rec.events[:0]
			for _, e := range m.Events[e0:ei] {
				rec.events = append(rec.events, e.Event)
			}
			changed = true
			for _, e := range m.Events[e0:ei] {
				// A nudge is the server's own doing; a join or a leave is
				// another player's, as its inputs are.
				events = events || e.Event.Kind == game.Nudge
			}
		}
		for p := 0; p < m.Players; p++ {
			if p == c.player {
				continue
			}
			in := m.Inputs[p*m.Count+off]
			if rec.ins[p] != in {
				rec.ins[p], rec.remote = in, true
				changed = true
			}
			if newestRelay {
				c.known[p] = in
			}
		}
		if changed {
			c.markStale(t)
			if !found && (!c.view.haveNewest || !tick.After(c.view.newest, t)) {
				first, found = t, true // the state at newest is the server's: what comes before is past
				if events {
					kind = KindServer
				}
			}
		}
	}
	if newestRelay {
		from := end
		if c.view.haveNewest && tick.After(c.view.newest, from) {
			from = c.view.newest // what comes before the server's state is past
		}
		if t, ok := c.extrapolate(from); ok && !found {
			first, found = t, true
		}
	}
	if found {
		return c.refresh(first, end, kind)
	}
	return nil
}

// extrapolate gives the ticks from from to the present, which the client
// predicted before a relay told it the other players' newest inputs, the
// inputs it predicts them with from now on (c.known), and returns the
// first tick it changed. Without it, those ticks kept the older guess
// until the next relay told them, and each relay replayed them twice:
// once with the guess, once with what the server applied.
func (c *Client) extrapolate(from uint32) (first uint32, found bool) {
	now := c.Tick()
	for t := from; tick.After(now, t); t++ {
		rec, ok := c.hist.recs.Get(t)
		if !ok || rec.skip {
			continue
		}
		changed := false
		for p := range c.scene.Players {
			if p != c.player && rec.ins[p] != c.known[p] {
				rec.ins[p], rec.remote = c.known[p], true
				changed = true
			}
		}
		if changed {
			c.markStale(t)
			if !found {
				first, found = t, true
			}
		}
	}
	return first, found
}

// sameEvents reports whether a tick's recorded events are the relay's.
func sameEvents(rec []game.Event, relay []wire.TickEvent) bool {
	if len(rec) != len(relay) {
		return false
	}
	for i := range rec {
		if rec[i] != relay[i].Event {
			return false
		}
	}
	return true
}

// takeRelay makes the history of ticks from..end-1 the server's and returns
// the first tick whose record changed and what changed first there.
func (c *Client) takeRelay(m *wire.Relay, from, end uint32) (first uint32, kind Kind, found bool) {
	si, ei := 0, 0
	for t := m.First; t != end; t++ {
		off := t - m.First
		for si < len(m.Skips) && off >= m.Skips[si].Offset+m.Skips[si].Len {
			si++
		}
		skip := si < len(m.Skips) && off >= m.Skips[si].Offset
		e0 := ei
		for ei < len(m.Events) && m.Events[ei].Offset == off {
			ei++
		}
		if tick.After(from, t) {
			continue // already the server's
		}
		rec, _ := c.hist.recs.Get(t)
		var ins [game.MaxPlayers]game.Input
		for p := 0; p < m.Players; p++ {
			ins[p] = m.Inputs[p*m.Count+int(off)]
		}
		k, changed := KindInput, false
		switch {
		case ei > e0:
			k, changed = KindServer, true
		case skip != rec.skip || (!skip && ins[c.player] != rec.ins[c.player]):
			k, changed = KindInput, true
		case !skip && ins != rec.ins:
			k, changed = KindRemote, true
		}
		if changed && !found {
			first, kind, found = t, k, true
			c.markStale(t)
		}
		rec.ins, rec.skip = ins, skip
		rec.events = rec.events[:0]
		for _, e := range m.Events[e0:ei] {
			rec.events = append(rec.events, e.Event)
		}
		if !skip {
			for p := 0; p < m.Players; p++ {
				if p != c.player {
					c.known[p] = ins[p]
				}
			}
		}
	}
	return first, kind, found
}
