package lab

import (
	"testing"

	"github.com/cubelab/cube/session"
)

// BenchmarkWindowTicks measures a session tick of the window's lab in the
// cubes scene without drawing: what a frame of `cube -scene cubes` spends
// simulating per tick, with no bots, with two remote bots (-bots 2) and
// with two full bots (-bots 2 -full-bots). Each run first plays three
// seconds so that the bots have joined and stir the cubes. replays/tick
// is client 0's replays.
func BenchmarkWindowTicks(b *testing.B) {
	for _, c := range []struct {
		name          string
		players, bots int
	}{{"none", 1, 0}, {"remote", 1, 2}, {"full", 3, 0}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := session.DefaultConfig()
			cfg.Scene = "cubes"
			cfg.Players, cfg.Bots = c.players, c.bots
			l, err := New(cfg, true, 0)
			if err != nil {
				b.Fatal(err)
			}
			frames := func(n int) {
				for range n {
					if err := l.Frame(1.0 / 64); err != nil { // one tick a frame
						b.Fatal(err)
					}
				}
			}
			frames(3 * 64)
			st := &l.Client().Stats
			replays := st.PartialReplays + st.FullReplays
			b.ResetTimer()
			frames(b.N)
			b.StopTimer()
			b.ReportMetric(float64(st.PartialReplays+st.FullReplays-replays)/float64(b.N), "replays/tick")
		})
	}
}
