package session

// BufferStats counts a client's input buffer at the server as the server's
// messages report it: with each state taken, how many ticks ahead of the
// server's clock the client's newest input had arrived (negative: after
// its tick was simulated). It is what a client can know of its own late
// inputs; the server counts them exactly.
type BufferStats struct {
	Samples uint64
	// Late counts the samples below zero: messages that said the
	// client's newest input had arrived too late for its tick.
	Late uint64
	hist [bufferBins]uint64 // depth+1, clamped to [0, bufferBins-1]
}

// bufferBins bounds the histogram: -1 (late) to 254 ticks.
const bufferBins = 256

// add counts one sample, in ticks.
func (b *BufferStats) add(d int32) {
	b.Samples++
	if d < 0 {
		b.Late++
	}
	b.hist[max(0, min(int32(bufferBins-1), d+1))]++
}

// P95 returns the 95th percentile of the samples, in ticks (-1 for late
// ones); 0 without samples.
func (b *BufferStats) P95() float64 {
	var seen uint64
	for i, c := range b.hist {
		if seen += c; b.Samples > 0 && seen*100 >= b.Samples*95 {
			return float64(i - 1)
		}
	}
	return 0
}
