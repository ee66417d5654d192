package tick

import (
	"testing"
	"time"

	"github.com/cubelab/cube/physics"
)

// TestDuration: the default 64 Hz step is 15.625 ms exactly, and a step
// that is not a whole number of nanoseconds rounds to the nearest.
func TestDuration(t *testing.T) {
	if d := Duration(physics.DefaultConfig().Dt); d != 15625*time.Microsecond {
		t.Errorf("default tick %v, want 15.625ms", d)
	}
	cfg := physics.DefaultConfig()
	cfg.Dt = 1.0 / 60
	if d := Duration(cfg.Dt); d != 16666667*time.Nanosecond {
		t.Errorf("60 Hz tick %v, want 16.666667ms", d)
	}
}

// TestAfterAcrossTheWrap: order holds across 2³², for ticks less than 2³¹
// apart, and a tick is not after itself.
func TestAfterAcrossTheWrap(t *testing.T) {
	cases := []struct {
		a, b  uint32
		after bool
	}{
		{1, 0, true},
		{0, 1, false},
		{5, 5, false},
		{0, 0xffffffff, true}, // 0 follows 2³²-1
		{0xffffffff, 0, false},
		{10, 0xfffffff0, true},
		{1 << 31, 1, true},     // 2³¹-1 apart: still in order
		{1 + 1<<31, 1, false},  // 2³¹ apart: the limit, no longer after
		{0x7fffffff, 0, true},  // the largest gap that still orders
		{0x80000000, 0, false}, // one more and it reads as before
		{0xfffffffe, 0xffffffff, false},
	}
	for _, c := range cases {
		if got := After(c.a, c.b); got != c.after {
			t.Errorf("After(%#x, %#x) = %v, want %v", c.a, c.b, got, c.after)
		}
	}
}

// TestRingSlotHoldsOnlyItsTick: a slot answers only for the tick it
// holds, so a value RingSize ticks old is never taken for a new one, and
// Newer says when a put would overwrite a newer tick.
func TestRingSlotHoldsOnlyItsTick(t *testing.T) {
	var r Ring[int]
	if _, ok := r.Get(7); ok {
		t.Fatal("an empty ring holds tick 7")
	}
	*r.Put(7) = 70
	if v, ok := r.Get(7); !ok || *v != 70 {
		t.Fatalf("tick 7: %v, %v", v, ok)
	}
	if _, ok := r.Get(7 + RingSize); ok {
		t.Fatal("tick 7+RingSize read tick 7's slot")
	}
	*r.Put(7 + RingSize) = 71
	if _, ok := r.Get(7); ok {
		t.Fatal("tick 7 still read after its slot took 7+RingSize")
	}
	if !r.Newer(7) || r.Newer(7+2*RingSize) {
		t.Fatalf("Newer: 7 %v (want true), 7+2·RingSize %v (want false)", r.Newer(7), r.Newer(7+2*RingSize))
	}
	r.Reset()
	if _, ok := r.Get(7 + RingSize); ok || r.Newer(7) {
		t.Fatal("the ring holds values after Reset")
	}
}

// TestRingAcrossTheWrap: ticks on both sides of 2³² share the ring as any
// others do.
func TestRingAcrossTheWrap(t *testing.T) {
	var r Ring[uint32]
	for tk := uint32(0xffffff00); tk != 0x100; tk++ {
		*r.Put(tk) = tk
	}
	for tk := uint32(0xffffff00); tk != 0x100; tk++ {
		if v, ok := r.Get(tk); !ok || *v != tk {
			t.Fatalf("tick %#x: %v, %v", tk, v, ok)
		}
	}
	if !r.Newer(0xffffff00 - RingSize) {
		t.Fatal("a tick a ring before the oldest would not be overwritten as older")
	}
}
