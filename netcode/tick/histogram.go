package tick

// HistogramBins bounds a Histogram: from -1 to HistogramBins-2 ticks.
const HistogramBins = 256

// Histogram counts samples of a number of ticks from -1 to
// HistogramBins-2, a sample beyond either end counted at that end: an
// input buffer's depth, where -1 is nothing buffered (an input late for
// its tick). Client and server keep one each: the buffer the client's
// messages report and the depth the server finds. Its zero value is
// empty.
type Histogram struct {
	bins [HistogramBins]uint64 // sample+1, clamped
	n    uint64
}

// Add counts one sample of d ticks.
func (h *Histogram) Add(d int32) {
	h.bins[max(0, min(HistogramBins-1, d+1))]++
	h.n++
}

// Samples returns the number of samples counted.
func (h *Histogram) Samples() uint64 { return h.n }

// P95 returns the 95th percentile of the samples, in ticks (-1 for late
// ones); 0 without samples.
func (h *Histogram) P95() float64 {
	var seen uint64
	for i, c := range h.bins {
		if seen += c; h.n > 0 && seen*100 >= h.n*95 {
			return float64(i - 1)
		}
	}
	return 0
}
