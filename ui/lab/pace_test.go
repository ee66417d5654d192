package lab

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/session"
)

// TestSpeedFigureIsTicksSimulatedOverTicksDue: on a fake wall clock where
// each tick costs 100 ms, every frame runs one tick (the budget is 40 ms)
// and lasts 200 ms, 12.8 ticks of real time. The HUD and the closing line
// must both say 1 in 12.8, about 8 %, as the ticks simulated over the wall
// clock's time say; a figure over the ticks the catch-up cap lets a frame
// ask for (8) said 12 %.
func TestSpeedFigureIsTicksSimulatedOverTicksDue(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Players = 2 // the -bots lab
	l, err := New(cfg, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	var now time.Duration
	l.local.wall = func() time.Duration { now += 100 * time.Millisecond; return now } // every reading: 100 ms later
	var last, elapsed time.Duration
	for range 50 {
		e := now - last
		last = now
		elapsed += e
		if err := l.Frame(e.Seconds()); err != nil {
			t.Fatal(err)
		}
	}
	simulated := float64(l.Session().Now() / l.Session().TickDuration())
	due := elapsed.Seconds() / l.Session().TickDuration().Seconds()
	want := simulated / due
	if want > 0.09 || want < 0.07 {
		t.Fatalf("the fake clock ran %v ticks in %v ticks of wall-clock time: the test's premise is off", simulated, due)
	}
	// The ticks due less those not due yet (under one tick).
	if got := l.local.pace.total(); math.Abs(got-want) > 1/due {
		t.Errorf("speed since the start %.4f, want ticks simulated over ticks due %.4f", got, want)
	}
	if got := l.local.pace.recent(); math.Abs(got-want) > 0.005 {
		t.Errorf("HUD speed %.4f, want %.4f", got, want)
	}
	line := hudLine(l, "speed")
	if wantLine := fmt.Sprintf("running at %.0f%% speed", 100*want); !strings.Contains(line, wantLine) {
		t.Errorf("HUD %q, want %q", line, wantLine)
	}
	if note, wantNote := l.PaceNote(), fmt.Sprintf(", speed %.0f%%", 100*want); note != wantNote {
		t.Errorf("closing line's speed %q, want %q", note, wantNote)
	}
}

// TestPaceAtFullSpeedIsExact: frames at 60 Hz of ticks at 64 Hz run one
// tick or two; every tick due runs, so the figure is 100 % at every frame,
// though a frame's ticks never match its time.
func TestPaceAtFullSpeedIsExact(t *testing.T) {
	var c stepClock
	c.dt = 1.0 / 64
	var p pace
	for f := range 600 {
		n, dropped := c.advance(1.0 / 60)
		p.add(1.0/60, n, dropped)
		if p.recent() != 1 || p.total() != 1 {
			t.Fatalf("frame %d: speed %v, recent %v, at full speed", f, p.total(), p.recent())
		}
	}
	if p.ran != 639 && p.ran != 640 { // the last, due or not yet (1/60 is not exact)
		t.Fatalf("10 s ran %v ticks", p.ran)
	}
}

// TestPaceRecentForgetsByTime: the HUD's figure forgets by wall-clock
// time, whatever the frame rate: a slow second (16 ticks of 64) weighs
// half as much a half-life later, at 30 frames a second as at 240.
func TestPaceRecentForgetsByTime(t *testing.T) {
	figure := func(fps float64) float64 {
		p := pace{recentRan: 16, recentDue: 64}
		for range int(fps * paceHalfLife) {
			p.add(1/fps, 0, 0) // frames shorter than a tick: none due
		}
		p.add(0, 32, 0) // then 32 ticks, all that were due
		return p.recent()
	}
	want := (8.0 + 32) / (32 + 32)
	for _, fps := range []float64{30, 240} {
		if got := figure(fps); math.Abs(got-want) > 1e-9 {
			t.Errorf("%v fps: recent speed %v, want %v", fps, got, want)
		}
	}
	var p pace
	if p.total() != 1 || p.recent() != 1 {
		t.Errorf("nothing due yet: speed %v, recent %v, want 1", p.total(), p.recent())
	}
}
