package lab

import (
	"math"
	"testing"

	"github.com/cubelab/cube/predict"
)

// TestReplayRate feeds three seconds of ticks at 64 Hz, a replay of 5
// ticks and 40 bodies every other tick in the last second only: the rate
// is that second's, not the average since the start.
func TestReplayRate(t *testing.T) {
	var r replayRate
	var st predict.ClientStats
	for k := 0; k <= 3*64; k++ {
		if k > 2*64 && k%2 == 0 {
			st.PartialReplays++
			st.Resimulated += 5
			st.ResimulatedBodies += 5 * 40
		}
		r.add(float64(k)/64, &st)
	}
	n, ticks, bodies := r.perSecond()
	if math.Abs(n-32) > 1 || math.Abs(ticks-160) > 5 || math.Abs(bodies-6400) > 200 {
		t.Errorf("%.1f replays, %.1f ticks, %.1f bodies a second: want 32, 160, 6400", n, ticks, bodies)
	}
	if len(r.samples) > 70 {
		t.Errorf("%d samples held for a second of 64 ticks", len(r.samples))
	}
	r.reset()
	if n, _, _ := r.perSecond(); n != 0 {
		t.Errorf("after reset: %v replays a second", n)
	}
}
