package predict

import (
	"errors"

	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/physics"
)

// refresh re-simulates, in state sync, the ticks from first (the first
// whose record a relay changed) to the present with the other players'
// inputs the server applied, so that the world, the hashes the next
// snapshot is compared with and the keyframes a rewind starts from are
// what those inputs give. first is not before the newest snapshot taken:
// the state there is the server's as far as the client knows, and the
// history before it is gone. end is the end of the relay's run, where the
// player's cube is compared to tell a visible correction from a quiet one.
// A relay that changes a record makes one refresh, counted in Refreshes
// and as a KindRemote misprediction; the snapshot that follows then
// compares hashes the inputs the server applied gave.
func (c *Client) refresh(first, end uint32) error {
	if !c.Config.Corrections {
		return nil // the snapshot's classification says remote (rec.remote)
	}
	from := first
	if c.haveNewest && tick.After(c.newest, from) {
		from = c.newest
	}
	now := c.Tick()
	if !tick.After(now, from) {
		return nil
	}
	pred, ok := c.hist.players.Get(end)
	if !ok {
		return nil
	}
	beforePlayer := *pred
	before := c.world.Body(c.body)
	if err := c.rebuild(from); err != nil {
		if errors.Is(err, errNoHistory) {
			return nil // a snapshot will rewind the client
		}
		return err
	}
	if err := c.replay(from, now); err != nil {
		return err
	}
	c.stale = false
	for t := from; t != now; t++ {
		if rec, ok := c.hist.recs.Get(t); ok {
			rec.remote = false // simulated with the server's inputs now
		}
	}
	after, _ := c.hist.players.Get(end)
	mp := &c.last
	*mp = Misprediction{Tick: end, From: from, Kind: KindRemote, DiffTick: end}
	mp.Error = bodyError(&beforePlayer, after)
	mp.Corrected = mp.Error.Exceeds(c.Config.Thresholds)
	c.Stats.Refreshes++
	c.refreshed(mp, before, int(now-from))
	c.mispredicted(mp)
	return nil
}

// refreshed records a refresh that moved the player from before to where
// it is now, replaying n ticks: a visible correction when the player's
// cube moved beyond the thresholds, else only the replay.
func (c *Client) refreshed(mp *Misprediction, before physics.BodyState, n int) {
	after := c.world.Body(c.body)
	mp.Replayed = n
	mp.Jump = before.Pos.Sub(after.Pos).Len()
	c.teleport = c.teleport.Add(after.Pos.Sub(before.Pos))
	c.Stats.ReplayedTicks += uint64(n)
	c.Stats.MaxReplay = max(c.Stats.MaxReplay, n)
	c.countReplay()
	if mp.Corrected {
		c.Stats.Corrections++
	}
	c.Smooth.Correct(before.Pos, after.Pos, before.Rot, after.Rot)
}
