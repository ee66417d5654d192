package session_test

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/runplot"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

var (
	// replayEach makes BenchmarkCorrectionCost replay after each message,
	// as before one replay a turn, for comparison.
	replayEach = flag.Bool("replay-each", false, "BenchmarkCorrectionCost: replay after each message that rewinds (ClientConfig.ReplayEach)")
	// costPlot names the PNG BenchmarkCorrectionCost draws its figures to.
	costPlot = flag.String("cost-plot", "", "BenchmarkCorrectionCost: draw the cost per replay against the bodies it re-simulated to this PNG")
)

// BenchmarkCorrectionCost measures what a correction costs in the cubes
// scene on the average preset, for 1 to 8 players in both sync modes:
// each client's replays a second, and per replay (one a turn at most)
// the ticks and bodies it re-simulated (rebuilds included, bodies summed
// over ticks) and its wall time. Every client's replays count. One
// iteration is a run of 4 s.
func BenchmarkCorrectionCost(b *testing.B) {
	p, _ := netsim.PresetByName("average")
	var points []runplot.CostPoint
	for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
		for _, players := range []int{1, 2, 4, 8} {
			b.Run(fmt.Sprintf("%v/players=%d", mode, players), func(b *testing.B) {
				b.ReportAllocs()
				var replays, ticks, bodies uint64
				var wall time.Duration
				var seconds float64
				for range b.N {
					cfg := session.DefaultConfig()
					cfg.Preset, cfg.Conditions = p.Name, p.Conditions
					cfg.Scene, cfg.Players, cfg.Client.Mode = "cubes", players, mode
					cfg.Client.ReplayEach = *replayEach
					start := time.Now()
					s, sum, err := session.Run(cfg, 4, func(s *session.Session) error {
						for _, c := range s.Clients {
							c.Wall = func() time.Duration { return time.Since(start) }
						}
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
					for _, c := range s.Clients {
						st := &c.Stats
						replays += st.PartialReplays + st.FullReplays
						ticks, bodies, wall = ticks+st.Resimulated, bodies+st.ResimulatedBodies, wall+st.ReplayTime
						seconds += sum.Seconds + sum.DrainSeconds
					}
				}
				n := max(float64(replays), 1) // one player alone may never replay
				b.ReportMetric(float64(replays)/seconds, "replays/s/client")
				b.ReportMetric(float64(ticks)/n, "ticks/replay")
				b.ReportMetric(float64(bodies)/n, "bodies/replay")
				ms := float64(wall.Microseconds()) / 1000 / n
				b.ReportMetric(ms, "ms/replay")
				if replays > 0 {
					points = append(points, runplot.CostPoint{Mode: mode.String(), Players: players, Bodies: float64(bodies) / n, Ms: ms})
				}
			})
		}
	}
	if *costPlot != "" && len(points) > 0 {
		if err := runplot.WriteCost(*costPlot, "cube: a client's correction cost, cubes scene, average preset", points); err != nil {
			b.Fatal(err)
		}
	}
}
