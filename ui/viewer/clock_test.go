package viewer

import "testing"

func TestClockAdvance(t *testing.T) {
	c := NewClock()
	const dt = 1.0 / 64
	if n := c.Advance(1, dt); n != 0 {
		t.Fatalf("paused: %d", n)
	}
	c.Toggle()
	total := 0
	for k := 0; k < 60; k++ {
		total += c.Advance(1.0/60, dt)
	}
	if total != 64 && total != 63 {
		t.Fatalf("1 s at 1x: %d positions, want 64", total)
	}
	c.Slower()
	c.Slower()
	if c.SpeedString() != "1/4x" {
		t.Fatalf("speed %s", c.SpeedString())
	}
	if n := c.Advance(1, dt); n != 16 {
		t.Fatalf("1 s at 1/4x: %d", n)
	}
	for k := 0; k < 20; k++ {
		c.Faster()
	}
	if c.SpeedString() != "8x" || c.Advance(1, dt) != MaxStepsPerFrame || c.Advance(0.001, dt) != 0 {
		t.Fatalf("at 8x: %s; a long frame is capped and the rest dropped", c.SpeedString())
	}
	for k := 0; k < 20; k++ {
		c.Slower()
	}
	if c.SpeedString() != "1/16x" {
		t.Fatalf("slowest %s", c.SpeedString())
	}
	c.Pause()
	if c.Playing || c.Advance(1, dt) != 0 {
		t.Fatal("paused clock advanced")
	}
}

func TestTimelineArithmetic(t *testing.T) {
	cases := []struct {
		x    float64
		want int
	}{{-50, 0}, {10, 0}, {60, 500}, {110, 1000}, {500, 1000}, {10.04, 0}, {10.06, 1}}
	for _, c := range cases {
		if got := PosAt(c.x, 10, 100, 1000); got != c.want {
			t.Errorf("PosAt(%g) = %d, want %d", c.x, got, c.want)
		}
	}
	if PosAt(5, 0, 0, 10) != 0 || Frac(5, 0) != 0 || Frac(250, 1000) != 0.25 || Frac(2000, 1000) != 1 || Frac(-1, 10) != 0 {
		t.Error("Frac or PosAt at the edges")
	}
	if SecondsToSteps(10, 1.0/64) != 640 || SecondsToSteps(-10, 1.0/64) != -640 || SecondsToSteps(1, 0) != 0 {
		t.Error("SecondsToSteps")
	}
}

func TestDifferingBodies(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 5, fullEvery: 64, nudgeAt: -1})
	a := rec.Header.Initial
	var b = a
	b.Bodies = append(b.Bodies[:0:0], a.Bodies...)
	if got := DifferingBodies(nil, &a, &b); len(got) != 0 {
		t.Fatalf("equal states: %v", got)
	}
	last := len(b.Bodies) - 1
	b.Bodies[last].Rest++
	b.Bodies[0].Pos.X += 1e-12
	if got := DifferingBodies(nil, &a, &b); len(got) != 2 || got[0] != 0 || got[1] != last {
		t.Fatalf("got %v, want [0 %d]", got, last)
	}
}
