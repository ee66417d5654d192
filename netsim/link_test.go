package netsim

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestPerfectLinkDeliversAtOnce(t *testing.T) {
	l := mustLink(t, Conditions{}, 1)
	l.Send(5*ms, []byte("hi"))
	got := l.Receive(5 * ms)
	if len(got) != 1 || string(got[0].Data) != "hi" || got[0].Sent != 5*ms || got[0].Deliver != 5*ms {
		t.Fatalf("Receive = %+v", got)
	}
	if got := l.Receive(6 * ms); len(got) != 0 {
		t.Fatalf("second Receive = %+v", got)
	}
}

func TestNothingDeliveredEarly(t *testing.T) {
	c := Conditions{Latency: 50 * ms, Jitter: 20 * ms, Duplicate: 0.3, Loss: 0.1}
	l := mustLink(t, c, 3)
	var now time.Duration
	for i := range 5000 {
		now += time.Duration(1+i%7) * ms
		l.Send(now, []byte{byte(i)})
		for _, p := range l.Receive(now) {
			if p.Deliver > now {
				t.Fatalf("packet due at %v handed out at %v", p.Deliver, now)
			}
			if d := p.Deliver - p.Sent; d < c.Latency-c.Jitter || d > c.Latency+c.Jitter {
				t.Fatalf("delay %v outside %v ± %v", d, c.Latency, c.Jitter)
			}
		}
		// and nothing that was due is left behind
		for _, f := range l.fly.items {
			if f.deliver <= now {
				t.Fatalf("packet due at %v still in flight at %v", f.deliver, now)
			}
		}
		checkBalance(t, l)
	}
}

func TestPayloadIsCopied(t *testing.T) {
	l := mustLink(t, Conditions{Latency: 10 * ms}, 1)
	buf := []byte("first")
	l.Send(0, buf)
	copy(buf, "XXXXX")
	l.Send(1*ms, buf)
	buf[0] = 'Y'
	got := l.Receive(20 * ms)
	if len(got) != 2 || string(got[0].Data) != "first" || string(got[1].Data) != "XXXXX" {
		t.Fatalf("Receive = %q, %q", got[0].Data, got[1].Data)
	}
	// The link's copy must not alias the caller's buffer either way.
	got[0].Data[0] = 'Z'
	if buf[0] != 'Y' {
		t.Fatal("received data aliases the sender's buffer")
	}
}

// Data handed out stays intact while other packets are sent on the link.
func TestReceivedDataSurvivesSend(t *testing.T) {
	l := mustLink(t, Conditions{}, 1)
	l.Send(0, []byte("keep"))
	got := l.Receive(0)
	for i := range 100 {
		l.Send(0, []byte{byte(i), byte(i), byte(i), byte(i)})
	}
	if string(got[0].Data) != "keep" {
		t.Fatalf("received data overwritten: %q", got[0].Data)
	}
}

func TestTiesComeOutInSendOrder(t *testing.T) {
	l := mustLink(t, Conditions{Latency: 10 * ms}, 1)
	for i := range 50 {
		l.Send(0, []byte{byte(i)})
	}
	got := l.Receive(10 * ms)
	if len(got) != 50 {
		t.Fatalf("%d packets, want 50", len(got))
	}
	for i, p := range got {
		if p.Data[0] != byte(i) {
			t.Fatalf("packet %d carries %d", i, p.Data[0])
		}
	}
}

func record(t *testing.T, c Conditions, seed uint64) []delivery {
	return stream(t, mustLink(t, c, seed), 20_000, 10*ms)
}

func TestSameSeedSameSequence(t *testing.T) {
	c := Conditions{Latency: 80 * ms, Jitter: 30 * ms, Loss: 0.2, BurstLen: 3, Duplicate: 0.1}
	a, b := record(t, c, 42), record(t, c, 42)
	if !slices.Equal(a, b) {
		t.Fatal("seed 42 gave two different delivery sequences")
	}
	other := record(t, c, 43)
	if slices.Equal(a, other) {
		t.Fatal("seeds 42 and 43 gave the same delivery sequence")
	}
}

func TestResetReplays(t *testing.T) {
	c := presets[5].Conditions
	c.Duplicate = 0.1
	c.Bandwidth, c.QueueBytes = 20_000, 2_000
	l := mustLink(t, c, 9)
	first := stream(t, l, 5000, 5*ms)
	l.Send(0, []byte("left in flight"))
	l.Reset()
	if l.InFlight() != 0 || l.Stats() != (Stats{}) || l.Conditions() != c {
		t.Fatalf("after Reset: in flight %d, stats %+v, conditions %+v", l.InFlight(), l.Stats(), l.Conditions())
	}
	if again := stream(t, l, 5000, 5*ms); !slices.Equal(first, again) {
		t.Fatal("Reset did not rewind the link")
	}
	if fresh := stream(t, mustLink(t, c, 9), 5000, 5*ms); !slices.Equal(first, fresh) {
		t.Fatal("Reset link differs from a new one")
	}
}

// Each Send draws the same numbers whatever the conditions, so loss only
// removes packets and leaves the others' delays as they were.
func TestLossDoesNotShiftDelays(t *testing.T) {
	c := Conditions{Latency: 30 * ms, Jitter: 10 * ms}
	clean := record(t, c, 5)
	c.Loss = 0.3
	lossy := record(t, c, 5)
	want := map[uint64]time.Duration{}
	for _, d := range clean {
		want[d.id] = d.deliver
	}
	for _, d := range lossy {
		if want[d.id] != d.deliver {
			t.Fatalf("packet %d due at %v with loss, %v without", d.id, d.deliver, want[d.id])
		}
	}
}

func TestReorderingOnlyWhenConfigured(t *testing.T) {
	const interval = 10 * ms
	for _, tc := range []struct {
		name    string
		c       Conditions
		reorder bool
	}{
		{"no jitter", Conditions{Latency: 100 * ms, Loss: 0.1, Duplicate: 0.2}, false},
		{"jitter below half the interval", Conditions{Latency: 100 * ms, Jitter: interval/2 - 1}, false},
		{"jitter above the interval", Conditions{Latency: 100 * ms, Jitter: interval}, true},
		{"in order despite jitter", Conditions{Latency: 100 * ms, Jitter: 20 * interval, Duplicate: 0.2, InOrder: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := record(t, tc.c, 11)
			n := reorders(d)
			if tc.reorder && n < len(d)/20 {
				t.Errorf("%d of %d packets reordered, want many", n, len(d))
			}
			if !tc.reorder && n != 0 {
				t.Errorf("%d of %d packets reordered, want none", n, len(d))
			}
		})
	}
}

// InOrder still applies jitter: delays vary, they only never overtake.
func TestInOrderKeepsJitter(t *testing.T) {
	c := Conditions{Latency: 100 * ms, Jitter: 40 * ms, InOrder: true}
	d := record(t, c, 2)
	lo, hi := time.Duration(math.MaxInt64), time.Duration(0)
	for _, x := range d {
		lo, hi = min(lo, x.deliver-x.sent), max(hi, x.deliver-x.sent)
	}
	if lo < c.Latency-c.Jitter || hi > c.Latency+c.Jitter || hi-lo < c.Jitter {
		t.Errorf("in-order delays span [%v, %v]", lo, hi)
	}
}

// Duplicate = 0.2 over 20,000 packets: binomial sd sqrt(0.2*0.8/20000) =
// 0.28%; the test allows 5 sd (1.4%).
func TestDuplicationOnlyWhenConfigured(t *testing.T) {
	for _, dup := range []float64{0, 0.2, 1} {
		c := Conditions{Latency: 20 * ms, Jitter: 5 * ms, Loss: 0.1, Duplicate: dup}
		l := mustLink(t, c, 8)
		d := stream(t, l, 20_000, 10*ms)
		count := map[uint64]int{}
		for _, x := range d {
			count[x.id]++
		}
		twice := 0
		for id, k := range count {
			if k > 2 {
				t.Fatalf("packet %d delivered %d times", id, k)
			}
			if k == 2 {
				twice++
			}
		}
		s := l.Stats()
		if uint64(twice) != s.Duplicated {
			t.Errorf("Duplicate %v: %d packets arrived twice, Stats.Duplicated %d", dup, twice, s.Duplicated)
		}
		rate := float64(twice) / float64(s.Sent-s.Lost)
		if tol := 5 * math.Sqrt(dup*(1-dup)/float64(s.Sent-s.Lost)); math.Abs(rate-dup) > tol {
			t.Errorf("Duplicate %v: duplicated %.4f of delivered packets, want ± %.4f", dup, rate, tol)
		}
	}
}

// New conditions apply to packets sent afterwards; those in flight keep
// their delivery times.
func TestConditionsChangeInFlight(t *testing.T) {
	for _, inOrder := range []bool{false, true} {
		l := mustLink(t, Conditions{Latency: 100 * ms, InOrder: inOrder}, 1)
		l.Send(0, []byte("slow"))
		if err := l.SetConditions(Conditions{Latency: 10 * ms, InOrder: inOrder}); err != nil {
			t.Fatal(err)
		}
		l.Send(1*ms, []byte("fast"))
		var got []string
		var when []time.Duration
		for now := time.Duration(0); now <= 200*ms; now += ms {
			for _, p := range l.Receive(now) {
				got = append(got, string(p.Data))
				when = append(when, p.Deliver)
			}
		}
		want, wantWhen := []string{"fast", "slow"}, []time.Duration{11 * ms, 100 * ms}
		if inOrder {
			want, wantWhen = []string{"slow", "fast"}, []time.Duration{100 * ms, 100 * ms}
		}
		if !slices.Equal(got, want) || !slices.Equal(when, wantWhen) {
			t.Errorf("InOrder %v: got %v at %v, want %v at %v", inOrder, got, when, want, wantWhen)
		}
	}
}

// Switching loss off takes effect at once, even in the middle of a burst.
func TestLossOffEndsBurst(t *testing.T) {
	l := mustLink(t, Conditions{Loss: 1}, 1)
	l.Send(0, nil)
	if err := l.SetConditions(Conditions{Loss: 0.5, BurstLen: 1000}); err != nil {
		t.Fatal(err)
	}
	if err := l.SetConditions(Conditions{}); err != nil {
		t.Fatal(err)
	}
	l.Send(0, []byte("x"))
	if got := l.Receive(0); len(got) != 1 {
		t.Fatalf("after switching loss off: %d packets", len(got))
	}
}

func TestJitterLargerThanLatencyClampsAtZero(t *testing.T) {
	c := Conditions{Latency: 2 * ms, Jitter: 10 * ms}
	d := record(t, c, 4)
	zero := 0
	for _, x := range d {
		if x.deliver < x.sent {
			t.Fatalf("packet delivered %v before it was sent", x.sent-x.deliver)
		}
		if x.deliver == x.sent {
			zero++
		}
	}
	// P(offset <= -2ms) = (8ms+1ns)/(20ms+1ns): 40% of packets. Binomial sd
	// over 20,000 packets is 0.35%; 0.02 is about 5.8 sd.
	if frac := float64(zero) / float64(len(d)); math.Abs(frac-0.4) > 0.02 {
		t.Errorf("%.3f of packets clamped to zero delay, want 0.4", frac)
	}
}

func TestPayloadsOfManySizes(t *testing.T) {
	l := mustLink(t, Conditions{Latency: 3 * ms, Jitter: 2 * ms}, 6)
	var now time.Duration
	want := map[byte][]byte{}
	for i := range 2000 {
		size := (i * 7919) % 3000
		p := bytes.Repeat([]byte{byte(i)}, size)
		if size >= 2 {
			binary.LittleEndian.PutUint16(p, uint16(size))
		}
		want[byte(i)] = p
		l.Send(now, p)
		now += ms
		for _, r := range l.Receive(now) {
			if len(r.Data) >= 2 && int(binary.LittleEndian.Uint16(r.Data)) != len(r.Data) {
				t.Fatalf("packet of %d bytes says %d", len(r.Data), binary.LittleEndian.Uint16(r.Data))
			}
			if len(r.Data) > 2 && r.Data[len(r.Data)-1] != r.Data[2] {
				t.Fatal("payload corrupted")
			}
		}
	}
	if got := l.Receive(now + time.Second); len(got) == 0 {
		t.Fatal("nothing left to drain")
	}
	if s := l.Stats(); s.BytesSent == 0 || s.BytesDelivered != s.BytesSent || s.Delivered != s.Sent {
		t.Fatalf("bytes do not add up on a lossless link: %+v", s)
	}
}
