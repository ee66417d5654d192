package main

import "fmt"

// rateWindow is the span the HUD's byte rates are measured over, seconds.
const rateWindow = 1.0

// rateMeter turns the links' cumulative byte counters, sampled after each
// tick, into bytes per second over the last rateWindow seconds of session
// time, so that the HUD follows a change of snapshot rate or preset within a
// second instead of averaging since the session started.
type rateMeter struct {
	s []rateSample // oldest first; the first one is at or before the window's start
}

type rateSample struct {
	t        float64 // session seconds
	up, down uint64  // bytes sent so far
}

// reset starts over at session time t with counters up and down.
func (m *rateMeter) reset(t float64, up, down uint64) {
	m.s = append(m.s[:0], rateSample{t, up, down})
}

// add records the counters at session time t (not before the last one).
func (m *rateMeter) add(t float64, up, down uint64) {
	m.s = append(m.s, rateSample{t, up, down})
	// Keep one sample at or before the window's start as the base.
	k := 0
	for k+1 < len(m.s) && m.s[k+1].t <= t-rateWindow {
		k++
	}
	if k > 0 {
		m.s = append(m.s[:0], m.s[k:]...)
	}
}

// rates returns the bytes per second sent up and down over the last
// rateWindow seconds (over the whole session while it is younger).
func (m *rateMeter) rates() (up, down float64) {
	if len(m.s) < 2 {
		return 0, 0
	}
	a, b := m.s[0], m.s[len(m.s)-1]
	dt := b.t - a.t
	if dt <= 0 {
		return 0, 0
	}
	return float64(b.up-a.up) / dt, float64(b.down-a.down) / dt
}

// byteRate formats bytes per second: 653 B/s, 87.6 kB/s, 1.25 MB/s.
func byteRate(r float64) string {
	switch {
	case r < 1000:
		return fmt.Sprintf("%.0f B/s", r)
	case r < 1e6:
		return fmt.Sprintf("%.1f kB/s", r/1e3)
	default:
		return fmt.Sprintf("%.2f MB/s", r/1e6)
	}
}
