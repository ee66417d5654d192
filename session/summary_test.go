package session

import (
	"testing"

	"github.com/cubelab/cube/netcode/tick"
)

func TestBufferStats(t *testing.T) {
	var b BufferStats
	if b.P95() != 0 {
		t.Fatalf("no samples: p95 %v", b.P95())
	}
	for i := range 100 {
		d := int32(2)
		switch {
		case i < 3:
			d = -5 // late
		case i >= 94:
			d = 400 // beyond the histogram: counted in its last bin
		}
		b.add(d)
	}
	if b.Samples != 100 || b.Late != 3 {
		t.Fatalf("samples %d, late %d", b.Samples, b.Late)
	}
	if p := b.P95(); p != tick.HistogramBins-2 {
		t.Fatalf("p95 %v, want %d (the six largest are clamped)", p, tick.HistogramBins-2)
	}
	var c BufferStats
	for range 10 {
		c.add(-3)
	}
	if c.P95() != -1 || c.Late != 10 {
		t.Fatalf("all late: p95 %v, late %d", c.P95(), c.Late)
	}
}

func TestEndpointSummaryOfASessionClient(t *testing.T) {
	cfg := DefaultConfig()
	s, sum, err := Run(cfg, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := s.Endpoints[0]
	m := e.Summary(ClientRun{Seconds: 5, Settled: sum.Final.Settled, Link: s.Conns[0].Stats()})
	if m.Final != sum.Final || m.Corrections != sum.Corrections || m.Ticks != sum.Ticks || m.Mispredictions != sum.Mispredictions {
		t.Fatalf("the endpoint's summary differs from the session's in what the client knows:\n%+v\n%+v", m, sum)
	}
	if e.Buffer.Samples == 0 || m.RTTms <= 0 || m.LeadTicks <= 0 {
		t.Fatalf("no time sync measured: %d samples, rtt %v ms, lead %d", e.Buffer.Samples, m.RTTms, m.LeadTicks)
	}
	// The estimate of the lead is near what the session measured.
	if d := m.LeadTicks - sum.LeadTicks; d < -3 || d > 3 {
		t.Errorf("lead estimated %d ticks, measured %d", m.LeadTicks, sum.LeadTicks)
	}
	t.Logf("estimated lead %d, measured %d; buffer p95 %v (server's %v); rtt %v ms (%v)", m.LeadTicks, sum.LeadTicks, m.InputBufferP95, sum.InputBufferP95, m.RTTms, sum.RTTms)
}
