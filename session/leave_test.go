package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/predict"
)

// TestStateSyncPlayerLeavesAndJoins: four slots on state sync, average
// preset, an Empty server; three players join at the start, a fourth 8 s
// in (a new cube comes into the world at its spawn) and the third leaves
// 20 s in while it still pushes its cube. The relays carry the server's
// Join and Leave events with the inputs, and the others apply them at
// their ticks as the server did. So from 5 s on (after the start's joins)
// each client that stays must have: no unverified misprediction and no
// server-event correction (before the client applied the relay's events:
// 60 unverified each in the second after the join, while the snapshots,
// which do not carry the new cube's contacts, could not put it in step,
// and a server-event correction at the leave), no transfer, no snapshot
// taken without its relay, and the cubes in its world that the server
// has: the leaver's out, the joiner's in.
func TestStateSyncPlayerLeavesAndJoins(t *testing.T) {
	s := time.Second
	const leaver, joinAt, leaveAt, end = 2, 8 * time.Second, 20 * time.Second, 32 * time.Second
	times := [][2]time.Duration{{0, 40 * s}, {20 * time.Millisecond, 40 * s}, {40 * time.Millisecond, leaveAt}, {joinAt, 40 * s}}
	type counts struct{ unverified, server, transfers, unrelayed, deferred uint64 }
	take := func(c *predict.Client) counts {
		m := &c.Stats.Mispredicted
		return counts{m[predict.KindUnverified], m[predict.KindServer], c.Stats.Transfers, c.Stats.Unrelayed, c.Stats.Deferred}
	}
	var base [4]counts
	based := [4]bool{}
	watch := func(now time.Duration, js []*joiner) {
		for i, j := range js {
			// A client is counted from 5 s on, or 2 s after its join.
			if from := max(5*s, j.join+2*s); !based[i] && now >= from {
				based[i], base[i] = true, take(j.ep.Client)
			}
		}
	}
	js := joinsPlay(t, predict.StateSync, "average", 4, times, end, 5, 0, watch)
	for i, j := range js {
		if i == leaver {
			continue
		}
		c := j.ep.Client
		d, b := take(c), base[i]
		t.Logf("client %d: from %+v to %+v; %d refreshes, mispredicted %v", i, b, d, c.Stats.Refreshes, c.Stats.Mispredicted)
		if d.unverified != b.unverified || d.server != b.server || d.transfers != b.transfers || d.unrelayed != b.unrelayed {
			t.Errorf("client %d: from %+v to %+v: want no unverified misprediction, server-event correction, transfer or snapshot taken without its relay", i, b, d)
		}
		if d.deferred == b.deferred {
			t.Errorf("client %d: no snapshot held for its relay: the test does not show what it should", i)
		}
		w, sc := c.World(), c.Scene()
		if w.Enabled(sc.Players[leaver]) || !w.Enabled(sc.Players[3]) {
			t.Errorf("client %d: the leaver's cube in the world %v, the joiner's %v; want out and in", i, w.Enabled(sc.Players[leaver]), w.Enabled(sc.Players[3]))
		}
		if !c.InSync() {
			t.Errorf("client %d: not in step at the end", i)
		}
	}
}
