package splitmix

import "testing"

// TestReferenceOutputs: the first outputs from seed 0 are those of the
// authors' C code, through Next and through Rand alike.
func TestReferenceOutputs(t *testing.T) {
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	var x uint64
	var r Rand
	for i, w := range want {
		if got := Next(&x); got != w {
			t.Errorf("Next output %d = %#x, want %#x", i, got, w)
		}
		if got := r.Uint64(); got != w {
			t.Errorf("Rand output %d = %#x, want %#x", i, got, w)
		}
	}
	if step := uint64(0x9e3779b97f4a7c15); x != 3*step {
		t.Errorf("the state after three draws is %#x, want three steps of the golden ratio, %#x", x, 3*step)
	}
}

// TestRanges: Intn stays in [0, n) and reaches every value, Float64 in
// [0, 1), and the same seed gives the same sequence.
func TestRanges(t *testing.T) {
	r, again := New(42), New(42)
	seen := make([]bool, 5)
	for i := 0; i < 1000; i++ {
		n := r.Intn(5)
		if n < 0 || n >= 5 {
			t.Fatalf("Intn(5) = %d", n)
		}
		seen[n] = true
		if m := again.Intn(5); m != n {
			t.Fatalf("draw %d: %d, then %d from the same seed", i, n, m)
		}
		if f := r.Float64(); f < 0 || f >= 1 {
			t.Fatalf("Float64() = %v", f)
		}
		again.Float64()
	}
	for v, ok := range seen {
		if !ok {
			t.Errorf("Intn(5) never gave %d in 1000 draws", v)
		}
	}
}
