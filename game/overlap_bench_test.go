package game

import (
	"testing"
	"time"

	"github.com/cubelab/cube/physics"
)

// BenchmarkMaxOverlapCubes measures physics.MaxOverlap as a summary calls
// it, once a tick: on the cubes scene (901 bodies) while the player pulls,
// from tick 960, one scripted step and one call an iteration. ns/op is the
// two together; overlap_ns and step_ns split it (timed around each).
// Nothing allocates once warm.
func BenchmarkMaxOverlapCubes(b *testing.B) {
	w, sc := MustBuild("cubes")
	if err := sc.RunScript(w, 960); err != nil {
		b.Fatal(err)
	}
	ins := make([]Input, 0, len(sc.Players))
	physics.MaxOverlap(w)
	b.ReportAllocs()
	b.ResetTimer()
	deepest := 0.0
	var inStep, inOverlap time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		ins = sc.Scripted(w, ins)
		if err := sc.Step(w, ins); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		deepest = max(deepest, physics.MaxOverlap(w))
		inStep, inOverlap = inStep+t1.Sub(t0), inOverlap+time.Since(t1)
	}
	b.ReportMetric(float64(inOverlap.Nanoseconds())/float64(b.N), "overlap_ns")
	b.ReportMetric(float64(inStep.Nanoseconds())/float64(b.N), "step_ns")
	b.ReportMetric(deepest, "max_m")
}
