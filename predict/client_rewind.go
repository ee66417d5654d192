package predict

import (
	"fmt"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/wire"
)

// rebuild puts the world in the state labelled t, which the client predicted
// (or replayed) earlier: the keyframe before t, then the recorded ticks up
// to t. The history it passes over is rewritten with the same values.
func (c *Client) rebuild(t uint32) error {
	k, ok := c.hist.keyBefore(t)
	if !ok {
		return fmt.Errorf("%w: no keyframe before tick %d", errNoHistory, t)
	}
	c.world.Load(k.state) // the world's own save, unchanged since: no check needed
	return c.replay(k.tick, t)
}

// replay re-simulates ticks from..to-1 from the world's state (labelled
// from) with the recorded ticks, rewriting the history.
func (c *Client) replay(from, to uint32) error {
	for t := from; t != to; t++ {
		rec, ok := c.hist.recs.Get(t)
		if !ok {
			return fmt.Errorf("%w: tick %d", errNoHistory, t)
		}
		if err := c.advance(t, rec); err != nil {
			return err
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
		mark := uint8(wire.SkippedMark)
		if !rec.skip {
			mark = uint8(rec.ins[c.player])
		}
		ch, _ := c.hist.chains.Get(k)
		*c.hist.chains.Put(k + 1) = wire.FoldInput(*ch, k, mark)
		a, _ := c.hist.all.Get(k)
		*c.hist.all.Put(k + 1) = wire.FoldAll(*a, k, rec.ins[:len(c.scene.Players)], rec.skip)
	}
}

// corrected records a rewind that moved the player from before to where it
// is now, replaying n ticks.
func (c *Client) corrected(mp *Misprediction, before physics.BodyState, n int) {
	after := c.world.Body(c.body)
	mp.Replayed = n
	mp.Jump = before.Pos.Sub(after.Pos).Len()
	c.teleport = c.teleport.Add(after.Pos.Sub(before.Pos))
	c.Stats.ReplayedTicks += uint64(n)
	c.Stats.MaxReplay = max(c.Stats.MaxReplay, n)
	if mp.Corrected {
		c.Stats.Corrections++
	} else {
		c.Stats.Resyncs++
	}
	c.Smooth.Correct(before.Pos, after.Pos, before.Rot, after.Rot)
}

// mispredicted counts mp and tells OnMispredict.
func (c *Client) mispredicted(mp *Misprediction) {
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
