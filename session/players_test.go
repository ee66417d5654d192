package session

import (
	"testing"

	"github.com/cubelab/cube/predict"
)

// TestEightPlayersInSync plays eight clients, each with its own link and
// autopilot, against one clocked server for a minute on the average preset,
// in both sync modes. Every client must end with the server's state, none
// may see nondeterminism (nothing was injected), the clients' input
// buffers at the server stay small and few inputs come late.
//
// It once stalled: a client joining by transfer started from a view the
// server did not hold (the Welcome went out a tick after the Hello set the
// views), and a joined client could not rewind to the ticks between its
// first one and the next keyframe, which it then called nondeterminism.
func TestEightPlayersInSync(t *testing.T) {
	for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
		cfg := presetConfig(t, "average")
		cfg.Players = 8
		cfg.Client.Mode = mode
		_, sum, err := Run(cfg, 60, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(sum.Players) != 8 || sum.Server == nil {
			t.Fatalf("%v: %d player summaries, server summary %v", mode, len(sum.Players), sum.Server)
		}
		if sum.Server.Rejected != 0 || sum.Rejected != 0 {
			t.Errorf("%v: %d messages rejected by the server, %d in all", mode, sum.Server.Rejected, sum.Rejected)
		}
		var repeated uint64
		for _, p := range sum.Players {
			repeated += p.RepeatedTicks
		}
		if repeated != sum.Server.RepeatedTicks {
			t.Errorf("%v: the players' repeated ticks add up to %d, the server counted %d", mode, repeated, sum.Server.RepeatedTicks)
		}
		for i, p := range sum.Players {
			if !p.Final.InSync || !p.Final.Settled {
				t.Errorf("%v, player %d: final %+v", mode, i, p.Final)
			}
			if m := p.Mispredictions; m.Nondeterminism != 0 || m.Server != 0 {
				t.Errorf("%v, player %d: mispredictions %+v", mode, i, m)
			}
			if p.Mispredictions.Remote == 0 {
				t.Errorf("%v, player %d: never mispredicted another player: the others did not move", mode, i)
			}
			if p.InputBufferP95 < 1 || p.InputBufferP95 > 3 {
				t.Errorf("%v, player %d: input buffer p95 %v ticks, want 1 to 3", mode, i, p.InputBufferP95)
			}
			if float64(p.LateInputs) > 0.005*float64(p.Ticks) {
				t.Errorf("%v, player %d: %d late inputs in %d ticks", mode, i, p.LateInputs, p.Ticks)
			}
			if p.Rejected != 0 || p.HeldTicks > 64 {
				t.Errorf("%v, player %d: %d rejected, %d ticks held", mode, i, p.Rejected, p.HeldTicks)
			}
		}
	}
}
