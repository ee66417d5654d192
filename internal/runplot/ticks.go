package runplot

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// secondTicks marks a time axis in seconds at a round step (1, 2 or 5 times
// a power of ten) that gives 4 to 10 labelled marks, labelled as whole
// numbers, with unlabelled marks between: never 2.50, 10.00, 17.50.
type secondTicks struct{}

// Ticks implements plot.Ticker.
func (secondTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) {
		return nil
	}
	step := roundStep((hi - lo) / 8)
	var out []plot.Tick
	minor := step / 5
	if step < 5 {
		minor = step / 2
	}
	for v := math.Ceil(lo/minor) * minor; v <= hi+minor*1e-9; v += minor {
		t := plot.Tick{Value: v}
		if k := math.Round(v / step); math.Abs(v-k*step) < minor*1e-6 {
			t.Label = strconv.FormatFloat(k*step, 'f', -1, 64)
		}
		out = append(out, t)
	}
	return out
}

// roundStep returns the smallest of 1, 2, 5 times a power of ten (at least
// 1) at or above x.
func roundStep(x float64) float64 {
	if !(x > 1) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}
