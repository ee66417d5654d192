package serve

import (
	"testing"
	"time"
)

func TestDurationBinsCoverEveryValueInOrder(t *testing.T) {
	last := -1
	for _, us := range []uint64{0, 1, 500, 1023, 1024, 1025, 1040, 2047, 2048, 5000, 1e6, 1e9, 1 << 62} {
		b := durationBin(us)
		if b < last || b >= len(durations{}.bins) {
			t.Fatalf("%d µs in bin %d (after %d, of %d)", us, b, last, len(durations{}.bins))
		}
		if f := binFloor(b); f > us || (us >= linearMicros && float64(us-f) > float64(us)/64) {
			t.Fatalf("%d µs in bin %d, whose floor is %d", us, b, f)
		}
		if us < linearMicros && binFloor(b) != us {
			t.Fatalf("%d µs not exact", us)
		}
		last = b
	}
}

func TestDurationQuantiles(t *testing.T) {
	var d durations
	if d.quantile(0.5) != 0 || d.maxMicros() != 0 {
		t.Fatal("empty histogram has figures")
	}
	for i := range 1000 {
		x := 40 * time.Microsecond
		switch {
		case i == 999:
			x = 3 * time.Millisecond
		case i >= 985:
			x = 200 * time.Microsecond
		}
		d.add(x)
	}
	if p := d.quantile(0.5); p != 40 {
		t.Errorf("p50 %v µs, want 40", p)
	}
	if p := d.quantile(0.99); p != 200 {
		t.Errorf("p99 %v µs, want 200", p)
	}
	if m := d.maxMicros(); m != 3000 {
		t.Errorf("max %v µs, want 3000", m)
	}
}
