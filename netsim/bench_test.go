package netsim

import (
	"testing"
	"time"
)

// steady is a link warmed up to steady state: one Send and one Receive per
// step of the virtual clock, with as many packets in flight as the delay
// allows and every payload buffer already allocated.
type steady struct {
	l        *Link
	now      time.Duration
	interval time.Duration
	payload  []byte
}

func newSteady(tb testing.TB, c Conditions, interval time.Duration, size int) *steady {
	s := &steady{l: mustLink(tb, c, 1), interval: interval, payload: make([]byte, size)}
	warm := 2 * int((c.Latency+c.Jitter)/interval+1)
	for range warm + 1000 {
		s.step()
	}
	return s
}

// step sends one packet and receives whatever is due.
func (s *steady) step() int {
	s.now += s.interval
	s.payload[0]++
	s.l.Send(s.now, s.payload)
	return len(s.l.Receive(s.now))
}

// benchConditions are the presets plus harder cases: duplication with a
// bandwidth queue, and many packets in flight.
func benchConditions() []struct {
	name     string
	c        Conditions
	interval time.Duration
} {
	var out []struct {
		name     string
		c        Conditions
		interval time.Duration
	}
	for _, p := range Presets() {
		out = append(out, struct {
			name     string
			c        Conditions
			interval time.Duration
		}{p.Name, p.Conditions, time.Second / 64})
	}
	avg := presets[3].Conditions
	avg.Duplicate, avg.Bandwidth, avg.QueueBytes = 0.1, 64_000, 16_000
	out = append(out, struct {
		name     string
		c        Conditions
		interval time.Duration
	}{"average+dup+bandwidth", avg, 2 * ms})
	out = append(out, struct {
		name     string
		c        Conditions
		interval time.Duration
	}{"outage-10kHz", presets[6].Conditions, 100 * time.Microsecond})
	return out
}

// TestSteadyStateAllocatesNothing is the allocation half of the benchmark
// target as a test (allocation counts do not depend on machine speed).
func TestSteadyStateAllocatesNothing(t *testing.T) {
	for _, bc := range benchConditions() {
		s := newSteady(t, bc.c, bc.interval, 120)
		if a := testing.AllocsPerRun(2000, func() { s.step() }); a != 0 {
			t.Errorf("%s: %v allocations per Send+Receive, want 0", bc.name, a)
		}
	}
}

// BenchmarkSendReceive measures one Send plus one Receive of a 120-byte
// payload in steady state. Target: 0 allocs/op and under 200 ns/op.
func BenchmarkSendReceive(b *testing.B) {
	for _, bc := range benchConditions() {
		b.Run(bc.name, func(b *testing.B) {
			s := newSteady(b, bc.c, bc.interval, 120)
			b.ReportAllocs()
			got := 0
			for b.Loop() {
				got += s.step()
			}
			b.ReportMetric(float64(s.l.InFlight()), "inflight")
			_ = got
		})
	}
}
