package netsim

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
	"time"
)

// fuzzConditions maps a byte to conditions: a preset, optionally with
// in-order delivery, duplication, bursts and a bandwidth limit.
func fuzzConditions(b byte) Conditions {
	c := presets[int(b)%len(presets)].Conditions
	c.InOrder = b&8 != 0
	if b&16 != 0 {
		c.Duplicate = 0.3
	}
	if b&32 != 0 {
		c.Bandwidth, c.QueueBytes = 20_000, 1500
	}
	if b&64 != 0 {
		c.Bandwidth, c.QueueBytes = 5_000, 0
	}
	if b&128 != 0 && c.Loss > 0 {
		c.BurstLen = 3
	}
	return c
}

// FuzzLink drives a link with a random program of sends, clock steps,
// receives, condition changes and resets, and checks the invariants:
// nothing is handed out early or below the minimum delay of the conditions
// it was sent under, deliveries come in time order, payloads arrive intact
// at most twice, and the counters balance after every step.
//
// Program: pairs (op, arg). op%5: 0 send 8+arg bytes; 1 advance the clock
// by arg*250µs; 2 receive; 3 set conditions fuzzConditions(arg); 4 reset
// if arg is 0, else advance the clock by arg*10ms.
func FuzzLink(f *testing.F) {
	f.Add(uint64(1), byte(0), []byte{0, 1, 2, 0, 1, 4, 2, 0})
	for k := range len(presets) {
		var prog []byte
		for i := range 300 {
			prog = append(prog, byte(i%3), byte(i*37))
		}
		f.Add(uint64(k), byte(k), prog)
		f.Add(uint64(k), byte(k|8|16|128), prog)
		f.Add(uint64(k), byte(k|32|16), prog)
		f.Add(uint64(k), byte(k|64|8), append(prog, 3, byte(k+1), 0, 200, 4, 0, 0, 9, 2, 0))
	}
	f.Fuzz(func(t *testing.T, seed uint64, setup byte, prog []byte) {
		c := fuzzConditions(setup)
		l := mustLink(t, c, seed)
		var (
			now         time.Duration
			last        time.Duration // latest delivery handed out
			id          uint64
			sizes       = map[uint64]int{}
			sentAt      = map[uint64]time.Duration{}
			minDelay    = map[uint64]time.Duration{}
			count       = map[uint64]int{}
			bytesOut    uint64
			buf         []byte
			receiveOnce = func(at time.Duration) {
				for _, p := range l.Receive(at) {
					if p.Deliver > at || p.Deliver < last {
						t.Fatalf("packet due at %v handed out at %v after one due at %v", p.Deliver, at, last)
					}
					last = p.Deliver
					if len(p.Data) < 8 {
						t.Fatalf("short payload %d", len(p.Data))
					}
					k := binary.LittleEndian.Uint64(p.Data)
					size, ok := sizes[k]
					if !ok || len(p.Data) != size || p.Sent != sentAt[k] {
						t.Fatalf("packet %d: %d bytes sent at %v, want %d at %v (known %v)", k, len(p.Data), p.Sent, size, sentAt[k], ok)
					}
					for _, b := range p.Data[8:] {
						if b != byte(k) {
							t.Fatalf("packet %d corrupted", k)
						}
					}
					if d := p.Deliver - p.Sent; d < minDelay[k] {
						t.Fatalf("packet %d delayed %v, minimum %v", k, d, minDelay[k])
					}
					if count[k]++; count[k] > 2 {
						t.Fatalf("packet %d delivered %d times", k, count[k])
					}
					bytesOut += uint64(len(p.Data))
				}
				for _, fl := range l.fly.items {
					if fl.deliver <= at {
						t.Fatalf("packet due at %v left in flight at %v", fl.deliver, at)
					}
				}
			}
		)
		for i := 0; i+1 < len(prog); i += 2 {
			op, arg := prog[i]%5, prog[i+1]
			switch op {
			case 0:
				buf = buf[:0]
				buf = binary.LittleEndian.AppendUint64(buf, id)
				for range int(arg) {
					buf = append(buf, byte(id))
				}
				sizes[id], sentAt[id] = len(buf), now
				minDelay[id] = max(0, l.cond.Latency-l.cond.Jitter)
				l.Send(now, buf)
				buf[len(buf)-1] ^= 0xff // the link must have copied it
				id++
			case 1:
				now += time.Duration(arg) * 250 * time.Microsecond
			case 2:
				receiveOnce(now)
			case 3:
				if err := l.SetConditions(fuzzConditions(arg)); err != nil {
					t.Fatal(err)
				}
			case 4:
				if arg == 0 {
					l.Reset()
					clear(count)
					bytesOut, last = 0, 0
				} else {
					now += time.Duration(arg) * 10 * ms
				}
			}
			checkBalance(t, l)
		}
		receiveOnce(math.MaxInt64)
		s := l.Stats()
		if l.InFlight() != 0 || s.Delivered+s.Lost+s.QueueDropped != s.Sent+s.Duplicated || s.BytesDelivered != bytesOut {
			t.Fatalf("after draining: %+v, in flight %d, %d bytes received", s, l.InFlight(), bytesOut)
		}
	})
}

// FuzzConditions checks Validate against an independent statement of the
// valid ranges, that its errors name every bad field, and that any
// conditions it accepts run: delays stay in [max(0, L-J), max(0, L+J)]
// when nothing else adds to them, and the counters balance.
func FuzzConditions(f *testing.F) {
	for _, p := range presets {
		c := p.Conditions
		f.Add(int64(c.Latency), int64(c.Jitter), c.Loss, c.BurstLen, c.Duplicate, c.InOrder, c.Bandwidth, c.QueueBytes)
	}
	f.Add(int64(-1), int64(0), 0.0, 0.0, 0.0, false, int64(0), 0)
	f.Add(int64(0), int64(MaxDelay+1), 1.5, 0.5, -1.0, true, int64(-3), -4)
	f.Add(int64(MaxDelay), int64(MaxDelay), 1.0, 1e300, 1.0, true, int64(1), 1)
	f.Add(int64(3*ms), int64(7*ms), math.NaN(), math.Inf(1), math.Inf(-1), false, int64(math.MaxInt64), math.MaxInt)
	f.Fuzz(func(t *testing.T, lat, jit int64, loss, burst, dup float64, inOrder bool, bw int64, q int) {
		c := Conditions{time.Duration(lat), time.Duration(jit), loss, burst, dup, inOrder, bw, q}
		inRange := func(x, lo, hi float64) bool { return x >= lo && x <= hi }
		bad := map[string]bool{
			"Latency":    lat < 0 || lat > int64(MaxDelay),
			"Jitter":     jit < 0 || jit > int64(MaxDelay),
			"Loss":       !inRange(loss, 0, 1),
			"BurstLen":   !(burst == 0 || inRange(burst, 1, math.MaxFloat64)),
			"Duplicate":  !inRange(dup, 0, 1),
			"Bandwidth":  bw < 0,
			"QueueBytes": q < 0,
		}
		err := c.Validate()
		anyBad := false
		for field, isBad := range bad {
			anyBad = anyBad || isBad
			named := err != nil && strings.Contains(err.Error(), "netsim: "+field+" is ")
			if named != isBad {
				t.Fatalf("%+v: field %s bad %v, error %v", c, field, isBad, err)
			}
		}
		if anyBad != (err != nil) {
			t.Fatalf("%+v: Validate = %v", c, err)
		}
		if err != nil {
			return
		}
		_ = c.String()
		l := mustLink(t, c, uint64(lat)^uint64(q))
		buf := make([]byte, 100)
		for i := range 50 {
			l.Send(time.Duration(i)*ms, buf[:i*2])
		}
		lo, hi := max(0, c.Latency-c.Jitter), max(0, c.Latency+c.Jitter)
		for _, p := range l.Receive(math.MaxInt64) {
			d := p.Deliver - p.Sent
			if d < lo || (bw == 0 && !inOrder && d > hi) {
				t.Fatalf("%+v: delay %v outside [%v, %v]", c, d, lo, hi)
			}
		}
		checkBalance(t, l)
		if l.InFlight() != 0 {
			t.Fatalf("%d left in flight", l.InFlight())
		}
	})
}
