package netsim

import (
	"encoding/binary"
	"testing"
	"time"
)

// delivery is one received packet as the tests see it.
type delivery struct {
	id            uint64 // number of the Send that produced it
	sent, deliver time.Duration
}

// stream sends n packets carrying their number, one every interval, calls
// Receive after each Send, then drains the link. It checks on the way that
// nothing is handed out before its time or out of (Deliver) order.
func stream(t testing.TB, l *Link, n int, interval time.Duration) []delivery {
	t.Helper()
	out := make([]delivery, 0, n)
	buf := make([]byte, 8)
	var last time.Duration
	collect := func(now time.Duration) {
		for _, p := range l.Receive(now) {
			if p.Deliver > now {
				t.Fatalf("packet due at %v handed out at %v", p.Deliver, now)
			}
			if p.Deliver < last {
				t.Fatalf("packet due at %v handed out after one due at %v", p.Deliver, last)
			}
			last = p.Deliver
			out = append(out, delivery{binary.LittleEndian.Uint64(p.Data), p.Sent, p.Deliver})
		}
	}
	var now time.Duration
	for i := range n {
		now = time.Duration(i) * interval
		binary.LittleEndian.PutUint64(buf, uint64(i))
		l.Send(now, buf)
		collect(now)
	}
	collect(now + 3*MaxDelay)
	if l.InFlight() != 0 {
		t.Fatalf("%d packets still in flight after draining", l.InFlight())
	}
	return out
}

// reorders counts deliveries whose id is lower than an earlier one's.
func reorders(d []delivery) int {
	n := 0
	var top uint64
	for i, x := range d {
		if i > 0 && x.id < top {
			n++
		}
		top = max(top, x.id)
	}
	return n
}

func mustLink(t testing.TB, c Conditions, seed uint64) *Link {
	t.Helper()
	l, err := NewLink(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// checkBalance asserts the counter identity documented on Stats.
func checkBalance(t testing.TB, l *Link) {
	t.Helper()
	s := l.Stats()
	if s.Delivered+s.Lost+s.QueueDropped+uint64(l.InFlight()) != s.Sent+s.Duplicated {
		t.Fatalf("counts do not add up: %+v, in flight %d", s, l.InFlight())
	}
}
