package session

import (
	"testing"

	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/predict"
)

// TestBandwidthTargets checks the traffic targets of a minute of play on
// the average preset with the autopilot, snapshots at 64 Hz. A session runs
// on a virtual clock with seeded links, so these bytes are the same on
// every machine: no timing is involved.
//
//   - arena, state sync, full precision: at most 8,000 bytes a second down
//   - cubes, input sync: at most 2,000 bytes a second down
//   - the bad preset: at most 1,500 bytes a second up
//   - every datagram at most wire.MaxMessage bytes
//
// (The cubes scene in state sync with -quantize is held to 32,000 bytes a
// second by the snapshot budget: TestSnapshotBudgetAndPriority.)
func TestBandwidthTargets(t *testing.T) {
	for _, c := range []struct {
		name, scene, preset string
		mode                predict.Mode
		down, up            float64
	}{
		{"arena state", "arena", "average", predict.StateSync, 8000, 1500},
		{"cubes inputs", "cubes", "average", predict.InputSync, 2000, 1500},
		{"arena bad", "arena", "bad", predict.StateSync, 0, 1500},
	} {
		cfg := presetConfig(t, c.preset)
		cfg.Scene, cfg.Client.Mode = c.scene, c.mode
		_, sum, err := Run(cfg, 60, nil)
		if err != nil {
			t.Fatal(err)
		}
		bps := sum.BytesPerSecond
		if c.down > 0 && bps.Down > c.down || bps.Up > c.up {
			t.Errorf("%s: %.0f B/s down, %.0f up; want at most %.0f and %.0f", c.name, bps.Down, bps.Up, c.down, c.up)
		}
		if bps.Down < 100 || bps.Up < 100 {
			t.Errorf("%s: %.0f B/s down, %.0f up: nothing was measured", c.name, bps.Down, bps.Up)
		}
		if p := sum.Packets; p.MaxBytesDown > wire.MaxMessage || p.MaxBytesUp > wire.MaxMessage {
			t.Errorf("%s: datagrams of %d bytes down, %d up", c.name, p.MaxBytesDown, p.MaxBytesUp)
		}
		if !sum.Final.InSync {
			t.Errorf("%s: not in sync at the end", c.name)
		}
	}
}
