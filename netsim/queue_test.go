package netsim

import (
	"testing"
	"time"
)

// 1000 B/s and a 300-byte queue: 100-byte packets take 100 ms each. Three
// sent at once fill the queue and depart at 100, 200 and 300 ms; a fourth
// is dropped. At 100 ms the first has left, so one more fits and departs at
// 400 ms. Latency is added after departure.
func TestBandwidthQueue(t *testing.T) {
	c := Conditions{Latency: 5 * ms, Bandwidth: 1000, QueueBytes: 300}
	l := mustLink(t, c, 1)
	p := make([]byte, 100)
	for range 4 {
		l.Send(0, p)
	}
	if s := l.Stats(); s.QueueDropped != 1 || l.InFlight() != 3 {
		t.Fatalf("after 4 sends: %+v, in flight %d", s, l.InFlight())
	}
	l.Send(99*ms, p) // queue still full: the first departs at 100 ms
	l.Send(100*ms, p)
	if s := l.Stats(); s.QueueDropped != 2 || l.InFlight() != 4 {
		t.Fatalf("after 6 sends: %+v, in flight %d", s, l.InFlight())
	}
	var got []time.Duration
	for _, pk := range l.Receive(time.Second) {
		got = append(got, pk.Deliver)
	}
	want := []time.Duration{105 * ms, 205 * ms, 305 * ms, 405 * ms}
	if len(got) != len(want) {
		t.Fatalf("deliveries %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("deliveries %v, want %v", got, want)
		}
	}
	checkBalance(t, l)
}

// An idle link serialises from the time of sending, not from the last
// departure; a packet larger than the queue never fits.
func TestBandwidthIdleAndOversize(t *testing.T) {
	l := mustLink(t, Conditions{Bandwidth: 1000, QueueBytes: 300}, 1)
	l.Send(0, make([]byte, 100))
	l.Send(time.Second, make([]byte, 50))
	l.Send(time.Second, make([]byte, 301))
	got := l.Receive(2 * time.Second)
	if len(got) != 2 || got[0].Deliver != 100*ms || got[1].Deliver != time.Second+50*ms {
		t.Fatalf("got %+v", got)
	}
	if l.Stats().QueueDropped != 1 {
		t.Fatalf("stats %+v", l.Stats())
	}
}

// Sending faster than the bandwidth with an unbounded queue delivers
// everything, at exactly the bandwidth: n packets of s bytes take n*s/B.
// Serialisation rounds up to whole nanoseconds: 3 bytes at 7 B/s take
// 428,571,429 ns.
func TestBandwidthRate(t *testing.T) {
	l := mustLink(t, Conditions{Bandwidth: 7}, 1)
	for range 70 {
		l.Send(0, make([]byte, 3))
	}
	got := l.Receive(time.Hour)
	if len(got) != 70 || l.Stats().QueueDropped != 0 {
		t.Fatalf("%d delivered, %+v", len(got), l.Stats())
	}
	if last, want := got[69].Deliver, 70*428_571_429*time.Nanosecond; last != want {
		t.Fatalf("last delivery %v, want %v", last, want)
	}
}

// Lost packets still used the bottleneck: loss happens after the queue.
// Changing the bandwidth keeps the queued packets' departures.
func TestBandwidthChange(t *testing.T) {
	l := mustLink(t, Conditions{Bandwidth: 1000, QueueBytes: 1000}, 1)
	l.Send(0, make([]byte, 500)) // departs at 500 ms
	if err := l.SetConditions(Conditions{Bandwidth: 10_000, QueueBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	l.Send(0, make([]byte, 500)) // queue holds 500 -> fits, starts at 500 ms, 50 ms
	l.Send(0, make([]byte, 1))   // 1001 bytes queued: dropped
	if err := l.SetConditions(Conditions{Loss: 1, Bandwidth: 10_000, QueueBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	l.Send(600*ms, make([]byte, 100)) // lost, but occupies 600..610 ms
	if err := l.SetConditions(Conditions{Bandwidth: 10_000, QueueBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	l.Send(600*ms, make([]byte, 100)) // 610..620 ms
	var got []time.Duration
	for _, p := range l.Receive(time.Second) {
		got = append(got, p.Deliver)
	}
	want := []time.Duration{500 * ms, 550 * ms, 620 * ms}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("deliveries %v, want %v", got, want)
	}
	s := l.Stats()
	if s.QueueDropped != 1 || s.Lost != 1 || s.Delivered != 3 {
		t.Fatalf("stats %+v", s)
	}
}

// The departure ring must grow and wrap without losing order.
func TestQueueRingWraps(t *testing.T) {
	var q queue
	var now time.Duration
	for round := range 50 {
		for i := range round {
			if _, ok := q.admit(now, 10+i, 1000, 0); !ok {
				t.Fatal("unbounded queue refused a packet")
			}
		}
		now = q.busyUntil
		q.drain(now)
		if q.n != 0 || q.bytes != 0 {
			t.Fatalf("round %d: %d packets, %d bytes left", round, q.n, q.bytes)
		}
	}
}
