package predict

import (
	"fmt"

	"github.com/cubelab/cube/netcode/tick"
)

// MaxSyncTest bounds ClientConfig.SyncTest: a rewind of up to a second.
const MaxSyncTest = 64

// syncTest is the sync test (ClientConfig.SyncTest, after GGRS's
// SyncTestSession): after the tick labelled now was predicted, rewind
// SyncTest ticks and re-simulate them, once in full and once partially
// (when the client keeps traces). The full replay must give the straight
// run's hash, unless a relay changed inputs of those ticks since they were
// simulated (then the straight run is not what they give); the partial
// one must give the full one's. A difference is a piece of evolving state
// the rewind forgot, or a partial replay that missed a body: it is
// reported as a misprediction of KindRewind, with both states when
// KeepStates is set. The history ends as the replays left it.
func (c *Client) syncTest(now uint32) error {
	n := uint32(c.Config.SyncTest)
	from := now - n
	if _, ok := c.hist.keyBefore(from); !ok || c.Tick() != now || n == 0 {
		return nil
	}
	for k := from; k != now; k++ {
		if _, ok := c.hist.recs.Get(k); !ok {
			return nil
		}
	}
	// A relay changed the inputs of ticks the world has not been replayed
	// with since: the straight run is not what they give.
	straight := !c.rerun.stale || !tick.After(now, c.rerun.staleFrom)
	want := c.world.Hash()
	if c.KeepStates {
		c.rerun.syncState.CopyFrom(c.world.State())
	}
	c.Stats.SyncTests++
	for _, full := range []bool{true, false} {
		if !full && !c.traced() {
			break
		}
		saved := c.Config.FullReplay
		c.Config.FullReplay = full
		err := c.rebuild(from)
		if err == nil {
			err = c.replay(from, now)
		}
		c.Config.FullReplay = saved
		if err != nil {
			return fmt.Errorf("predict: sync test of ticks %d to %d: %w", from, now, err)
		}
		got := c.world.Hash()
		if full && !straight {
			// The full replay is the reference for the partial one.
			want = got
			if c.KeepStates {
				c.rerun.syncState.CopyFrom(c.world.State())
			}
			continue
		}
		if got != want {
			c.Stats.SyncTestFailures++
			mp := &c.report.last
			*mp = Misprediction{Tick: now, From: from, Kind: KindRewind, DiffTick: now, Replayed: int(n)}
			if c.KeepStates {
				mp.Predicted, mp.Server = c.keep(&c.rerun.syncState), c.keep(c.world.State())
			}
			c.mispredicted(mp)
			return nil // the history is the replay's now: the next test starts from it
		}
	}
	return nil
}

// markStale notes that the record of tick t changed after the world was
// simulated with it (a relay's inputs), until a replay from t or before
// brings the world in line (replayTicks).
func (c *Client) markStale(t uint32) {
	if !c.rerun.stale || tick.After(c.rerun.staleFrom, t) {
		c.rerun.staleFrom = t
	}
	c.rerun.stale = true
}
