package session

import (
	"math"
	"testing"
	"time"
)

// TestMeterTicksOfACallerOwnClock: a meter fed tick by tick by a caller
// (the window's remote client, one tick a turn) gives the rates of the
// last second only: 100 bytes up and 300 down a tick at 64 Hz are 51.2
// and 153.6 kbit/s, whatever came before that second.
func TestMeterTicksOfACallerOwnClock(t *testing.T) {
	m := NewMeter(time.Second / 64)
	for range 64 {
		m.Tick(Traffic{UpBytes: 1000, UpPackets: 1})
	}
	for range 64 {
		m.Tick(Traffic{UpBytes: 100, DownBytes: 300, UpPackets: 1, DownPackets: 2, Bodies: 6})
	}
	r := m.Rates()
	if math.Abs(r.UpKbps-51.2) > 1e-9 || math.Abs(r.DownKbps-153.6) > 1e-9 {
		t.Errorf("up %v down %v kbit/s, want 51.2 and 153.6", r.UpKbps, r.DownKbps)
	}
	if r.UpBytesPerPacket != 100 || r.DownBytesPerPacket != 150 || r.BodiesPerPacket != 3 {
		t.Errorf("per packet: up %v B, down %v B, %v bodies; want 100, 150 and 3", r.UpBytesPerPacket, r.DownBytesPerPacket, r.BodiesPerPacket)
	}
	empty := NewMeter(time.Second / 64)
	if _, d := empty.Last(); d != 0 {
		t.Errorf("an empty meter spans %v", d)
	}
}
