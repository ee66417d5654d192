package predict

import (
	"fmt"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// rebuild puts the world in the state labelled t, which the client predicted
// (or replayed) earlier: the keyframe before t, then the recorded ticks up
// to t. The history it passes over is rewritten with the same values.
func (c *Client) rebuild(t uint32) error {
	if done, err := c.rebuildParked(t); done || err != nil {
		return err
	}
	k, ok := c.hist.keyBefore(t)
	if !ok && t == c.world.Tick() {
		// The present, before the step that keeps its span's keyframe:
		// the world is the state labelled t.
		c.rerun.partReady = false
		return nil
	}
	if !ok {
		return fmt.Errorf("%w: no keyframe before tick %d", errNoHistory, t)
	}
	if c.Wall != nil {
		c.rerun.rewindFrom = c.Wall()
	}
	c.world.Load(k.state) // the world's own save, unchanged since: no check needed
	// With the inputs known now, which may differ from those the ticks
	// were predicted with (another player's, from a relay): partially,
	// following only what those touch. The bodies followed differ from
	// the recorded run's at t: a replay from t goes on following them.
	c.rerun.partReady = false
	if err := c.replay(k.tick, t); err != nil {
		return err
	}
	c.rerun.partReady = c.traced()
	return nil
}

// traced reports whether the client records traces and replays partially:
// unless asked for full replays, or a Perturb hook changes the world
// behind the steps' backs.
func (c *Client) traced() bool { return !c.Config.FullReplay && c.Perturb == nil }

// preparePartial sets up the next replay from the world's state (the
// prediction at its tick) to the corrected state s: it follows the bodies
// that differ and those the prediction's contacts link to them, besides
// those a rebuild to that tick followed.
func (c *Client) preparePartial(s *physics.State) {
	if !c.traced() {
		return
	}
	if !c.rerun.partReady {
		c.rerun.part.Reset(c.world.NumBodies())
	}
	c.rerun.part.AddDiff(c.world.State(), s)
	c.world.Spread(&c.rerun.part, c.world.State())
	c.rerun.partReady = true
}

// replay re-simulates ticks from..to-1 from the world's state (labelled
// from) with the recorded ticks, rewriting the history: partially (only
// the bodies the correction reaches, set up by preparePartial, or none
// but those the inputs and events touch) unless the client replays in
// full.
func (c *Client) replay(from, to uint32) error {
	if !c.traced() {
		return c.replayFull(from, to)
	}
	if !c.rerun.partReady {
		c.rerun.part.Reset(c.world.NumBodies())
	}
	c.rerun.partReady = false
	c.rerun.following = true
	err := c.replayTicks(from, to)
	c.rerun.lastFull = !c.rerun.following
	c.rerun.lastBodies = c.rerun.part.Len()
	c.rerun.following = false
	return err
}

// replayFull re-simulates ticks from..to-1 in full, rewriting the history.
func (c *Client) replayFull(from, to uint32) error {
	c.rerun.partReady, c.rerun.following = false, false
	c.rerun.lastFull = true
	return c.replayTicks(from, to)
}

// replayTicks advances through ticks from..to-1 with their records.
func (c *Client) replayTicks(from, to uint32) error {
	if c.rerun.stale && !tick.After(from, c.rerun.staleFrom) && to == c.Tick() {
		defer func() { c.rerun.stale = false }()
	}
	for t := from; t != to; t++ {
		rec, ok := c.hist.recs.Get(t)
		if !ok {
			return fmt.Errorf("%w: tick %d", errNoHistory, t)
		}
		if err := c.advance(t, rec); err != nil {
			return err
		}
		c.Stats.Resimulated++
		if c.rerun.following {
			c.Stats.ResimulatedBodies += uint64(c.rerun.part.Len())
		} else {
			c.Stats.ResimulatedBodies += uint64(c.world.NumBodies())
		}
	}
	return nil
}

// adoptChain takes the server's input chains at t (the client's own and
// every player's) and refolds the recorded ticks after them.
func (c *Client) adoptChain(t, now uint32, chain, all uint64) {
	*c.hist.chains.Put(t) = chain
	*c.hist.all.Put(t) = all
	for k := t; k != now; k++ {
		rec, ok := c.hist.recs.Get(k)
		if !ok {
			return
		}
		mark := uint8(protocol.SkippedMark)
		if !rec.skip {
			mark = uint8(rec.ins[c.player])
		}
		ch, _ := c.hist.chains.Get(k)
		*c.hist.chains.Put(k + 1) = protocol.FoldInput(*ch, k, mark)
		a, _ := c.hist.all.Get(k)
		*c.hist.all.Put(k + 1) = protocol.FoldAll(*a, k, rec.ins[:len(c.scene.Players)], rec.skip)
	}
}

// corrected records a rewind that moved the player from before to where it
// is now, replaying n ticks: a visible correction, or a quiet resync.
func (c *Client) corrected(mp *Misprediction, before physics.BodyState, n int) {
	c.replayed(mp, before, n)
	if !mp.Corrected {
		c.Stats.Resyncs++
	}
}

// replayed records a replay of n ticks that moved the player from before
// to where it is now: its length, the jump the smoother hides, and a
// visible correction when the player's cube moved beyond the thresholds.
//
// Within a turn whose replay is parked, the replay, the jump and the
// smoother wait for the turn's end (settle).
func (c *Client) replayed(mp *Misprediction, before physics.BodyState, n int) {
	mp.Replayed = n
	c.Stats.ReplayedTicks += uint64(n)
	c.Stats.MaxReplay = max(c.Stats.MaxReplay, n)
	if mp.Corrected {
		c.Stats.Corrections++
	}
	if c.parkReplayed() {
		return
	}
	after := c.world.Body(c.body)
	mp.Jump = before.Pos.Sub(after.Pos).Len()
	c.report.teleport = c.report.teleport.Add(after.Pos.Sub(before.Pos))
	c.countReplay()
	c.Smooth.Correct(before.Pos, after.Pos, before.Rot, after.Rot)
}

// countReplay counts the replay just made, partial or full.
func (c *Client) countReplay() {
	c.rerun.replays++
	c.rerun.lastSet = c.rerun.lastSet[:0]
	if !c.rerun.lastFull {
		c.rerun.lastSet = append(c.rerun.lastSet, c.rerun.part.List()...)
	}
	if c.KeepReplayed {
		c.rerun.since.add(c.rerun.lastSet, c.rerun.lastFull, c.world.NumBodies())
	}
	if c.Wall != nil {
		c.Stats.LastReplayTime = c.Wall() - c.rerun.rewindFrom
		c.Stats.ReplayTime += c.Stats.LastReplayTime
	}
	if c.rerun.lastFull {
		c.Stats.FullReplays++
		c.Stats.LastReplay = c.world.NumBodies()
		return
	}
	c.Stats.PartialReplays++
	c.Stats.PartialBodies += uint64(c.rerun.lastBodies)
	c.Stats.LastReplay = c.rerun.lastBodies
}

// mispredicted counts mp and tells OnMispredict, at the turn's end when
// its replay is parked.
func (c *Client) mispredicted(mp *Misprediction) {
	if c.parkTold(mp) {
		return
	}
	c.tell(mp)
}

// tell counts mp and tells OnMispredict.
func (c *Client) tell(mp *Misprediction) {
	c.Stats.Mispredicted[mp.Kind]++
	if c.OnMispredict != nil {
		c.OnMispredict(mp)
	}
}

// keep copies a state for a report, when asked to.
func (c *Client) keep(s *physics.State) *physics.State {
	if !c.KeepStates {
		return nil
	}
	k := new(physics.State)
	k.CopyFrom(s)
	return k
}
