package tick

import "testing"

// TestHistogramP95: the 95th percentile is the smallest depth at or below
// which 95% of the samples lie; late samples count as -1, samples beyond
// the last bin at the last bin, and an empty histogram says 0.
func TestHistogramP95(t *testing.T) {
	var h Histogram
	if h.P95() != 0 || h.Samples() != 0 {
		t.Fatalf("empty: p95 %v, %d samples", h.P95(), h.Samples())
	}
	for i := 0; i < 95; i++ {
		h.Add(3)
	}
	for i := 0; i < 5; i++ {
		h.Add(40)
	}
	if h.P95() != 3 || h.Samples() != 100 {
		t.Fatalf("95 at 3, 5 at 40: p95 %v, %d samples", h.P95(), h.Samples())
	}
	h.Add(40)
	if h.P95() != 40 {
		t.Fatalf("one more at 40 (6 of 101 above 3): p95 %v, want 40", h.P95())
	}
	var late Histogram
	for _, d := range []int32{-5, -1, -1} {
		late.Add(d)
	}
	if late.P95() != -1 {
		t.Fatalf("late samples: p95 %v, want -1", late.P95())
	}
	var far Histogram
	far.Add(1 << 20)
	if far.P95() != HistogramBins-2 {
		t.Fatalf("a sample beyond the last bin: p95 %v, want %d", far.P95(), HistogramBins-2)
	}
}
