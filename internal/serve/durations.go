package serve

import (
	"math/bits"
	"time"
)

// durations is a histogram of durations in microseconds, of fixed size
// whatever the run's length: exact below linearMicros, within 1/64 above,
// with the exact maximum.
type durations struct {
	n    uint64
	max  time.Duration
	bins [linearMicros + 64*(64-linearBits)]uint64
}

const (
	linearBits   = 10
	linearMicros = 1 << linearBits // 1.024 ms
)

// durationBin returns the bin of us microseconds.
func durationBin(us uint64) int {
	if us < linearMicros {
		return int(us)
	}
	lead := bits.Len64(us) - 1 // >= linearBits
	sub := (us >> (lead - 6)) & 63
	return linearMicros + 64*(lead-linearBits) + int(sub)
}

// binFloor returns the smallest microseconds in bin i.
func binFloor(i int) uint64 {
	if i < linearMicros {
		return uint64(i)
	}
	k := i - linearMicros
	lead := k/64 + linearBits
	return (64 + uint64(k%64)) << (lead - 6)
}

// add counts one duration (negative ones as 0).
func (d *durations) add(x time.Duration) {
	d.n++
	d.max = max(d.max, x)
	d.bins[durationBin(uint64(max(x, 0)/time.Microsecond))]++
}

// quantile returns the q-quantile (0 < q <= 1) in microseconds: the floor of
// its bin; 0 without samples.
func (d *durations) quantile(q float64) float64 {
	if d.n == 0 {
		return 0
	}
	want := uint64(q * float64(d.n))
	if want < 1 {
		want = 1
	}
	var seen uint64
	for i, c := range d.bins {
		if seen += c; seen >= want {
			return float64(binFloor(i))
		}
	}
	return float64(d.max / time.Microsecond)
}

// maxMicros returns the largest duration in microseconds.
func (d *durations) maxMicros() float64 { return float64(d.max) / float64(time.Microsecond) }
