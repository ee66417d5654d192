package predict

import (
	"errors"

	"github.com/cubelab/cube/netcode/tick"
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
// and as a misprediction of kind (KindServer when the first tick it
// changed had a nudge the client did not know, KindInput when the server
// applied another input of the client's own, KindRemote for another
// player's input, join or leave); the snapshot that follows then compares
// hashes the inputs and events the server applied gave.
func (c *Client) refresh(first, end uint32, kind Kind) error {
	if !c.Config.Corrections {
		return nil // the snapshot's classification says remote (rec.remote)
	}
	from := first
	if c.view.haveNewest && tick.After(c.view.newest, from) {
		from = c.view.newest
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
	if err := c.replayLater(from, now); err != nil {
		return err
	}
	c.rerun.stale = false
	for t := from; t != now; t++ {
		if rec, ok := c.hist.recs.Get(t); ok {
			rec.remote = false // simulated with the server's inputs now
		}
	}
	mp := &c.report.last
	*mp = Misprediction{Tick: end, From: from, Kind: kind, DiffTick: end}
	if !c.parkError(&beforePlayer) {
		after, _ := c.hist.players.Get(end)
		mp.Error = bodyError(&beforePlayer, after)
		mp.Corrected = mp.Error.Exceeds(c.Config.Thresholds)
	}
	c.Stats.Refreshes++
	c.replayed(mp, before, int(now-from)) // a refresh is no quiet resync: it is not counted as one
	c.mispredicted(mp)
	return nil
}
