package session

import "time"

// Traffic is what crossed the link in some span of time.
type Traffic struct {
	UpBytes, DownBytes     int
	UpPackets, DownPackets int
	Bodies                 int // bodies in the snapshots sent down
}

// add adds o to t.
func (t *Traffic) add(o *Traffic) {
	t.UpBytes += o.UpBytes
	t.DownBytes += o.DownBytes
	t.UpPackets += o.UpPackets
	t.DownPackets += o.DownPackets
	t.Bodies += o.Bodies
}

// Rates is traffic over one second, as the HUD shows it.
type Rates struct {
	UpKbps, DownKbps                     float64 // kilobits per second
	UpBytesPerPacket, DownBytesPerPacket float64
	BodiesPerPacket                      float64 // in the snapshots sent down
}

// meterTicks is the longest second the meter can hold, in ticks.
const meterTicks = 1024

// Meter keeps a session's traffic tick by tick for the last second.
type Meter struct {
	ticks  [meterTicks]Traffic
	next   int
	filled int
	window int // ticks in a second
}

// NewMeter returns a meter for ticks of length tick: the session's, and a
// window's client against a remote server, whose turns are its ticks.
func NewMeter(tick time.Duration) Meter {
	return Meter{window: max(1, min(meterTicks, int(time.Second/tick)))}
}

// Tick records the traffic t of a tick that ended.
func (m *Meter) Tick(t Traffic) {
	m.ticks[m.next] = t
	m.next = (m.next + 1) % m.window
	m.filled = min(m.filled+1, m.window)
}

// Last returns the traffic of the last second (or of the time so far, if
// shorter).
func (m *Meter) Last() (Traffic, time.Duration) {
	var t Traffic
	for i := 0; i < m.filled; i++ {
		t.add(&m.ticks[i])
	}
	return t, time.Duration(m.filled) * time.Second / time.Duration(m.window)
}

// Rates returns the traffic of the last second as rates.
func (m *Meter) Rates() Rates {
	t, d := m.Last()
	var r Rates
	if s := d.Seconds(); s > 0 {
		r.UpKbps, r.DownKbps = float64(t.UpBytes)*8/1000/s, float64(t.DownBytes)*8/1000/s
	}
	if t.UpPackets > 0 {
		r.UpBytesPerPacket = float64(t.UpBytes) / float64(t.UpPackets)
	}
	if t.DownPackets > 0 {
		r.DownBytesPerPacket = float64(t.DownBytes) / float64(t.DownPackets)
		r.BodiesPerPacket = float64(t.Bodies) / float64(t.DownPackets)
	}
	return r
}
