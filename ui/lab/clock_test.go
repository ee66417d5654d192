package lab

import "testing"

func TestStepClockTurnsTimeIntoTicks(t *testing.T) {
	c := stepClock{dt: 1.0 / 64}
	total := 0
	// 60 frames of 1/60 s: 64 ticks in all, one or two a frame.
	for i := 0; i < 60; i++ {
		n, _ := c.advance(1.0 / 60)
		if n < 1 || n > 2 {
			t.Fatalf("frame %d ran %d ticks", i, n)
		}
		total += n
	}
	if total != 63 && total != 64 {
		t.Fatalf("one second of frames ran %d ticks", total)
	}
	if a := c.alpha(); a < 0 || a >= 1 {
		t.Fatalf("alpha %v", a)
	}
}

func TestStepClockCapsCatchUp(t *testing.T) {
	c := stepClock{dt: 1.0 / 64}
	if n, dropped := c.advance(3); n != maxCatchUp || dropped != 3*64-maxCatchUp {
		t.Fatalf("a 3 s stall ran %d ticks and dropped %v, want the cap %d and the %d others", n, dropped, maxCatchUp, 3*64-maxCatchUp)
	}
	if n, _ := c.advance(0); n != 0 {
		t.Fatalf("the dropped debt came back: %d ticks", n)
	}
	if n, _ := c.advance(-1); n != 0 {
		t.Fatalf("negative elapsed time ran %d ticks", n)
	}
}
