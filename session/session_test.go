package session

import (
	"reflect"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

func presetConfig(t *testing.T, name string) Config {
	p, err := netsim.PresetByName(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Preset, cfg.Conditions = p.Name, p.Conditions
	return cfg
}

func TestEveryPresetStaysInSyncWithRedundancy(t *testing.T) {
	for _, clocked := range []bool{false, true} {
		for _, p := range netsim.Presets() {
			cfg := presetConfig(t, p.Name)
			cfg.Clocked = clocked
			_, sum, err := Run(cfg, 60, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !sum.Final.InSync {
				t.Errorf("%s: not in sync at the end: %+v", p.Name, sum.Final)
			}
			m := sum.Mispredictions
			if m.Server+m.Nondeterminism+m.Unverified+m.Remote != 0 || sum.SkippedTicks != 0 {
				t.Errorf("%s, clocked %v: %d skipped ticks, mispredictions %+v", p.Name, clocked, sum.SkippedTicks, m)
			}
			// The input-driven server waits for redundancy to bring every
			// lost input: nothing is mispredicted at all. A clocked one
			// does not wait: an input lost beyond the buffer is late and
			// its tick repeats the last one, an input misprediction. Time
			// sync keeps that rare where loss is rare.
			if !clocked && m.Input != 0 || clocked && p.Conditions.Loss < 0.05 && float64(m.Input) > 0.002*float64(sum.Ticks) {
				t.Errorf("%s, clocked %v: %d input mispredictions in %d ticks", p.Name, clocked, m.Input, sum.Ticks)
			}
			if p.Name == "perfect" && (sum.Corrections != 0 || sum.Packets.UpLost != 0) {
				t.Errorf("perfect, clocked %v: %d corrections", clocked, sum.Corrections)
			}
			if p.Name != "perfect" && p.Name != "lan" && sum.Packets.UpLost == 0 {
				t.Errorf("%s: no packet was lost, the test proves nothing", p.Name)
			}
		}
	}
}

func TestNoRedundancyCorrectsAndEndsInSync(t *testing.T) {
	for _, name := range []string{"bad", "terrible", "outage"} {
		for _, clocked := range []bool{false, true} {
			cfg := presetConfig(t, name)
			cfg.Client.Redundancy = false
			cfg.Clocked = clocked
			_, sum, err := Run(cfg, 60, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The input-driven server skips what it lacks; the clocked one
			// repeats the last input.
			gaps := sum.SkippedTicks
			if clocked {
				gaps = sum.RepeatedTicks
			}
			if sum.Corrections == 0 || gaps == 0 || sum.Mispredictions.Input == 0 {
				t.Errorf("%s without redundancy, clocked %v: %d corrections, %d skipped or repeated ticks", name, clocked, sum.Corrections, gaps)
			}
			if sum.Mispredictions.Nondeterminism != 0 || sum.Mispredictions.Server != 0 {
				t.Errorf("%s: misclassified: %+v", name, sum.Mispredictions)
			}
			if !sum.Final.InSync {
				t.Errorf("%s without redundancy: not in sync: %+v", name, sum.Final)
			}
		}
	}
}

func TestNudgesAreSmoothed(t *testing.T) {
	cfg := presetConfig(t, "average")
	cfg.NudgeEvery = 2 * time.Second
	_, sum, err := Run(cfg, 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Corrections < 20 || sum.Mispredictions.Server < 20 {
		t.Fatalf("%d corrections, %d server mispredictions for 30 nudges", sum.Corrections, sum.Mispredictions.Server)
	}
	if sum.DisplayJump.MaxCorrection >= predict.SnapDistance {
		t.Fatalf("a correction of %v m snapped; pick another seed", sum.DisplayJump.MaxCorrection)
	}
	// 10% of the largest correction moves per frame, at most: well below it.
	if sum.DisplayJump.Max > 0.25*sum.DisplayJump.MaxCorrection {
		t.Fatalf("display jumped %v m per frame for corrections up to %v m", sum.DisplayJump.Max, sum.DisplayJump.MaxCorrection)
	}
	if !sum.Final.InSync {
		t.Fatal("not in sync after nudges")
	}

	cfg.Smoothing = false
	_, raw, err := Run(cfg, 60, nil)
	if err != nil {
		t.Fatal(err)
	}
	if raw.DisplayJump.Max < 0.99*raw.DisplayJump.MaxCorrection {
		t.Fatalf("without smoothing the display moved %v m, the correction was %v m", raw.DisplayJump.Max, raw.DisplayJump.MaxCorrection)
	}
}

func TestSessionCrossesTheTickWrap(t *testing.T) {
	cfg := presetConfig(t, "bad")
	cfg.Client.Redundancy = false
	cfg.StartTick = 1<<32 - 640 // wraps 10 s in
	s, sum, err := Run(cfg, 30, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Client.Tick() > 1<<20 || sum.Corrections == 0 || !sum.Final.InSync {
		t.Fatalf("across the wrap: tick %d, %d corrections, in sync %v", s.Client.Tick(), sum.Corrections, sum.Final.InSync)
	}
}

func TestRunIsReproducible(t *testing.T) {
	cfg := presetConfig(t, "terrible")
	cfg.Client.Redundancy = false
	_, a, _ := Run(cfg, 20, nil)
	_, b, _ := Run(cfg, 20, nil)
	cfg.Seed = 2
	_, c, _ := Run(cfg, 20, nil)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different runs")
	}
	if a.Final == c.Final && a.Corrections == c.Corrections {
		t.Fatal("another seed gave the same run")
	}
}

func TestBadSessionConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SnapshotHz = 3
	if _, err := New(cfg); err == nil {
		t.Fatal("3 Hz accepted")
	}
	cfg = DefaultConfig()
	cfg.Conditions.Loss = 2
	if _, err := New(cfg); err == nil {
		t.Fatal("loss 2 accepted")
	}
}
