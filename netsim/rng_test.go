package netsim

import (
	"math"
	"testing"
)

// The reference outputs come from the authors' C code: xoshiro256** from
// the state {1, 2, 3, 4} (splitmix64's are checked in splitmix).
func TestRNGReferenceOutputs(t *testing.T) {
	r := rng{s: [4]uint64{1, 2, 3, 4}}
	for i, want := range []uint64{11520, 0, 1509978240, 1215971899390074240, 1216172134540287360, 607988272756665600} {
		if got := r.next(); got != want {
			t.Errorf("xoshiro256** output %d = %d, want %d", i, got, want)
		}
	}
}

func TestRNGSeedsDiffer(t *testing.T) {
	a, b, a2 := newRNG(1), newRNG(2), newRNG(1)
	same := 0
	for range 1000 {
		x, y, x2 := a.next(), b.next(), a2.next()
		if x != x2 {
			t.Fatal("one seed gave two streams")
		}
		if x == y {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seeds 1 and 2 agreed on %d of 1000 outputs", same)
	}
}

// float64 must stay in [0, 1); below(n) in [0, n) and uniform. With
// 600,000 draws in 6 cells the expected count is 100,000 and the binomial
// standard deviation about 289; 5 sigma is 1,445.
func TestRNGRanges(t *testing.T) {
	r := newRNG(7)
	var sum float64
	const n = 600_000
	var cells [6]int
	for range n {
		u := r.float64()
		if !(u >= 0 && u < 1) {
			t.Fatalf("float64() = %v, want [0, 1)", u)
		}
		sum += u
		k := r.below(6)
		if k >= 6 {
			t.Fatalf("below(6) = %d", k)
		}
		cells[k]++
	}
	// Mean of U(0,1): sd 1/sqrt(12n) = 3.7e-4; allow 5 sigma.
	if mean := sum / n; math.Abs(mean-0.5) > 5/math.Sqrt(12*n) {
		t.Errorf("mean of float64() = %v, want 0.5", mean)
	}
	for k, c := range cells {
		if math.Abs(float64(c)-n/6) > 5*math.Sqrt(n*(1.0/6)*(5.0/6)) {
			t.Errorf("below(6) gave %d %d times, want about %d", k, c, n/6)
		}
	}
	if r.below(1) != 0 {
		t.Error("below(1) != 0")
	}
}
