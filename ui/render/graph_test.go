package render

import (
	"math"
	"testing"
)

var testPlot = rect{x: 100, y: 50, w: 500, h: 200}

func TestGraphMapsNowToRightEdgeAndDropsOldSamples(t *testing.T) {
	now := 123.5
	samples := []Sample{
		{T: now - 12, Error: 0.5},           // older than 10 s: dropped
		{T: now - 10.001, Error: 0.5},       // just too old: dropped
		{T: now - 10, Error: 0},             // the left edge
		{T: now - 5, Error: 1, InFlight: 3}, // the middle
		{T: now, Error: 0.01, Correction: true, InFlight: 12},
		{T: now + 1, Error: 0.5}, // future: dropped
	}
	var g graph
	g.layout(samples, now, testPlot)
	if len(g.pts) != 3 {
		t.Fatalf("%d points, want 3: %+v", len(g.pts), g.pts)
	}
	if x := g.pts[0].x; x != testPlot.x {
		t.Errorf("sample at now-10 s: x = %v, want the left edge %v", x, testPlot.x)
	}
	if x, want := g.pts[1].x, testPlot.x+testPlot.w/2; math.Abs(float64(x-want)) > 1e-3 {
		t.Errorf("sample at now-5 s: x = %v, want the middle %v", x, want)
	}
	last := g.pts[2]
	if x := last.x; x != testPlot.x+testPlot.w {
		t.Errorf("sample at now: x = %v, want the right edge %v", x, testPlot.x+testPlot.w)
	}
	if !last.correction || g.pts[1].correction {
		t.Errorf("correction flags not carried over: %+v", g.pts)
	}
	// Three strips, one scale each: the error in the top half, the ticks
	// in flight and the bandwidth a quarter each below it.
	errR, flightR, downR := g.strips(testPlot)
	if errR.y != testPlot.y || errR.h != testPlot.h/2 || flightR.y < errR.y+errR.h || downR.y < flightR.y+flightR.h || downR.y+downR.h > testPlot.y+testPlot.h {
		t.Fatalf("strips %+v %+v %+v in %+v", errR, flightR, downR, testPlot)
	}
	// Zero error lies on the error strip's bottom line; 1 m sits 4/5 of the
	// way up (0.1 mm .. 10 m).
	bottom := errR.y + errR.h
	if g.pts[0].yErr != bottom {
		t.Errorf("zero error at y = %v, want the bottom %v", g.pts[0].yErr, bottom)
	}
	if y, want := g.pts[1].yErr, bottom-errR.h*0.8; math.Abs(float64(y-want)) > 1e-3 {
		t.Errorf("1 m error at y = %v, want %v", y, want)
	}
	// In-flight scale: the max 12 rounds up to 20 ticks; 12 ticks is 60% up
	// its own strip.
	if g.flightMax != 20 {
		t.Errorf("flight scale %v, want 20", g.flightMax)
	}
	if y, want := last.yFlight, flightR.y+flightR.h-flightR.h*0.6; math.Abs(float64(y-want)) > 1e-3 {
		t.Errorf("12 ticks in flight at y = %v, want %v", y, want)
	}
}

func TestGraphHandlesEmptyAndUnsortedInput(t *testing.T) {
	var g graph
	g.layout(nil, 5, testPlot)
	if len(g.pts) != 0 || g.flightMax != minFlight {
		t.Errorf("empty input: %d points, flight scale %v", len(g.pts), g.flightMax)
	}
	g.layout([]Sample{{T: math.NaN()}, {T: 4, Error: math.Inf(1)}}, 5, testPlot)
	if len(g.pts) != 1 || g.pts[0].yErr != testPlot.y {
		t.Errorf("NaN time not dropped or infinite error not clamped to the top: %+v", g.pts)
	}
}

func TestNiceCeil(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{8, 10}, {10, 10}, {11, 20}, {0.3, 0.5}, {0, 1}, {200, 200}, {201, 500}, {5001, 10000},
	} {
		if got := niceCeil(c.in); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("niceCeil(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestGraphDrawsResyncsApartFromCorrections(t *testing.T) {
	a := testAtlas(t)
	count := func(samples []Sample) (fix, sync int) {
		var g graph
		var b batch
		g.drawGraph(&b, &a.normal, samples, 10, rect{0, 0, 640, 220})
		for _, v := range b.verts {
			switch v.c {
			case graphFixColor:
				fix++
			case graphSyncColor:
				sync++
			}
		}
		return fix, sync
	}
	fix0, sync0 := count(nil) // the legend's swatches are opaque: neither colour
	fix, sync := count([]Sample{{T: 5, Resync: true}})
	if fix != fix0 || sync <= sync0 {
		t.Errorf("a resync drew %d correction and %d resync vertices, want 0 and some", fix-fix0, sync-sync0)
	}
	fix, sync = count([]Sample{{T: 5, Correction: true, Resync: true}})
	if fix <= fix0 || sync != sync0 {
		t.Errorf("a correction drew %d correction and %d resync vertices, want some and 0", fix-fix0, sync-sync0)
	}
}
