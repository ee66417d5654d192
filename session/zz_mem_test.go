package session

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/cubelab/cube/predict"
)

func TestZZMem(t *testing.T) {
	runtime.MemProfileRate = 65536
	cfg := presetConfig(t, "outage")
	cfg.Scene, cfg.Seed, cfg.NudgeEvery = "cubes", 8128, 0*time.Second
	cfg.Client.Mode = predict.StateSync
	n := 0
	var peak uint64
	_, sum, err := Run(cfg, 30, func(s *Session) error {
		s.Poll = func(s *Session) bool {
			n++
			if n%64 == 0 {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > peak {
					peak = ms.HeapAlloc
					f, _ := os.Create("/tmp/peak2.prof")
					pprof.WriteHeapProfile(f)
					f.Close()
				}
			}
			return false
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak live %d MB; %s drain %.1f", peak>>20, sum.Verdict, sum.DrainSeconds)
}
