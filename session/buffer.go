package session

import "github.com/cubelab/cube/netcode/tick"

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
	hist tick.Histogram
}

// add counts one sample, in ticks.
func (b *BufferStats) add(d int32) {
	b.Samples++
	if d < 0 {
		b.Late++
	}
	b.hist.Add(d)
}

// P95 returns the 95th percentile of the samples, in ticks (-1 for late
// ones); 0 without samples.
func (b *BufferStats) P95() float64 { return b.hist.P95() }
