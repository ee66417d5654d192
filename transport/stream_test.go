package transport

import (
	"fmt"
	"testing"
)

func TestStreamOrderAcrossGrowth(t *testing.T) {
	s := newStream(1000)
	var c counters
	var dgs []Datagram
	var evs []PeerEvent
	// Leave the head mid-ring so that growth has to unwrap it.
	for i := range 10 {
		s.pushDatagram(1, &c, []byte{byte(i)})
	}
	dgs = s.takeDatagrams(dgs[:0])
	n := 0
	for round := range 5 {
		s.pushEvent(PeerEvent{Peer: PeerID(round + 1), Kind: Connected})
		for i := range 40 {
			s.pushDatagram(PeerID(round+1), &c, fmt.Appendf(nil, "%d/%d", round, i))
		}
	}
	for round := range 5 {
		if got := s.takeDatagrams(dgs[:0]); len(got) != 0 {
			t.Fatalf("round %d: %d datagrams before the event", round, len(got))
		}
		evs = s.takeEvents(evs[:0])
		if len(evs) != 1 || evs[0].Peer != PeerID(round+1) {
			t.Fatalf("round %d: events %+v", round, evs)
		}
		if got := s.takeEvents(evs[:0]); len(got) != 0 {
			t.Fatalf("round %d: events past a datagram: %+v", round, got)
		}
		dgs = s.takeDatagrams(dgs[:0])
		if len(dgs) != 40 {
			t.Fatalf("round %d: %d datagrams, want 40", round, len(dgs))
		}
		for i, d := range dgs {
			if want := fmt.Sprintf("%d/%d", round, i); string(d.Data) != want || d.Peer != PeerID(round+1) {
				t.Fatalf("round %d: datagram %d is %q from %d", round, i, d.Data, d.Peer)
			}
			n++
		}
	}
	if got := c.snapshot().Received; got != uint64(10+n) {
		t.Errorf("counted %d received, want %d", got, 10+n)
	}
}

func TestStreamLimitAndReuse(t *testing.T) {
	s := newStream(3)
	var c counters
	for i := range 5 {
		ok := s.pushDatagram(1, &c, []byte{byte(i)})
		if ok != (i < 3) {
			t.Fatalf("push %d: %v", i, ok)
		}
	}
	// Events are never refused.
	s.pushEvent(PeerEvent{Peer: 1, Kind: Gone})
	got := s.takeDatagrams(nil)
	if len(got) != 3 {
		t.Fatalf("%d datagrams", len(got))
	}
	if evs := s.takeEvents(nil); len(evs) != 1 {
		t.Fatalf("events %+v", evs)
	}
	// The buffers handed out come back at the next take, not before.
	s.pushDatagram(1, &c, []byte{9})
	if got[0].Data[0] != 0 {
		t.Fatal("a buffer was reused while still lent")
	}
	s.takeDatagrams(nil)
	allocs := testing.AllocsPerRun(100, func() {
		s.pushDatagram(1, &c, []byte("steady"))
		s.takeDatagrams(got[:0])
	})
	if allocs != 0 {
		t.Errorf("%v allocations per datagram in steady state", allocs)
	}
}

// A peer that floods the stream fills its own share only: another peer's
// datagrams still get in, and each peer's drops are its own.
func TestStreamFairShare(t *testing.T) {
	s := newStream(8)
	var flood, quiet counters
	for i := range 1000 {
		s.pushDatagram(1, &flood, []byte{byte(i)})
		if i%200 == 0 {
			if !s.pushDatagram(2, &quiet, []byte{byte(i)}) {
				t.Fatalf("the quiet peer's datagram %d was refused while another peer floods", i/200)
			}
		}
	}
	got := s.takeDatagrams(nil)
	n := map[PeerID]int{}
	for _, d := range got {
		n[d.Peer]++
	}
	if n[1] != 8 || n[2] != 5 {
		t.Errorf("took %d of the flood and %d of the quiet peer, want 8 and 5", n[1], n[2])
	}
	// Taking frees the share.
	if !s.pushDatagram(1, &flood, []byte{1}) {
		t.Error("the flooding peer's share was not freed by the take")
	}
}
