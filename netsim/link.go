package netsim

import "time"

// Packet is a payload handed out by Receive.
type Packet struct {
	// Data is the link's own copy of the payload; it stays valid until
	// the next Receive or Reset on the same link.
	Data []byte
	// Sent is the time passed to Send.
	Sent time.Duration
	// Deliver is when the packet became available; Deliver - Sent is
	// its one-way delay, queueing included.
	Deliver time.Duration
}

// Link is one direction of a simulated network path. It has no goroutines
// and reads no clock: every call takes the caller's virtual time now,
// which must not decrease from call to call. A Link is not safe for
// concurrent use.
type Link struct {
	cond  Conditions
	seed  uint64
	rng   rng
	loss  lossModel
	queue queue
	fly   flightHeap

	seq    uint64        // copy number of the next packet put in flight
	latest time.Duration // latest delivery time scheduled so far (InOrder)

	// A slot holds one packet copy's payload and send time while it is in
	// flight and until the next Receive. Slots and their buffers are
	// reused, so a link in steady state allocates nothing.
	slots []slot
	free  []int32  // slots ready for reuse
	lent  []int32  // slots of the packets returned by the last Receive
	out   []Packet // Receive's result, reused

	stats Stats
}

// slot is the storage of one packet copy.
type slot struct {
	sent time.Duration
	data []byte
}

// NewLink returns an empty link with conditions c and a random stream
// determined by seed alone. It fails if c is not valid.
func NewLink(c Conditions, seed uint64) (*Link, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	l := &Link{cond: c, seed: seed, rng: newRNG(seed)}
	l.loss.configure(c.Loss, c.BurstLen)
	return l, nil
}

// SetConditions replaces the link's conditions for packets sent from now
// on; packets already in flight keep their delivery times. Invalid
// conditions are refused and the old ones kept.
func (l *Link) SetConditions(c Conditions) error {
	if err := c.Validate(); err != nil {
		return err
	}
	l.cond = c
	l.loss.configure(c.Loss, c.BurstLen)
	return nil
}

// Conditions returns the link's current conditions.
func (l *Link) Conditions() Conditions { return l.cond }

// Stats returns the link's counters.
func (l *Link) Stats() Stats { return l.stats }

// InFlight returns the number of packet copies sent but not yet received.
func (l *Link) InFlight() int { return l.fly.len() }

// Send puts a copy of payload on the link at time now; the caller may
// reuse payload at once. The packet may be dropped by a full bandwidth
// queue or lost, and may be duplicated.
//
// Every Send draws exactly four numbers from the link's stream (loss,
// jitter, duplication, the duplicate's jitter) whatever happens to the
// packet, so with one seed the n-th packet sees the same random numbers
// under any conditions.
func (l *Link) Send(now time.Duration, payload []byte) {
	uLoss := l.rng.float64()
	jitter := l.jitter()
	uDup := l.rng.float64()
	dupJitter := l.jitter()

	l.stats.Sent++
	l.stats.BytesSent += uint64(len(payload))

	depart := now
	if l.cond.Bandwidth > 0 {
		at, ok := l.queue.admit(now, len(payload), l.cond.Bandwidth, l.cond.QueueBytes)
		if !ok {
			l.stats.QueueDropped++
			return
		}
		depart = at
	}
	if l.loss.lost(uLoss) {
		l.stats.Lost++
		return
	}
	l.schedule(now, depart+l.delay(jitter), payload)
	if uDup < l.cond.Duplicate {
		l.stats.Duplicated++
		l.schedule(now, depart+l.delay(dupJitter), payload)
	}
}

// jitter draws a uniform offset in [-Jitter, +Jitter] nanoseconds.
func (l *Link) jitter() time.Duration {
	j := l.cond.Jitter
	return time.Duration(l.rng.below(uint64(2*j+1))) - j
}

// delay is Latency plus a jitter offset, never negative.
func (l *Link) delay(jitter time.Duration) time.Duration {
	return max(0, l.cond.Latency+jitter)
}

// schedule copies payload into a free slot and puts it in flight.
func (l *Link) schedule(sent, deliver time.Duration, payload []byte) {
	if l.cond.InOrder {
		deliver = max(deliver, l.latest)
	}
	l.latest = max(l.latest, deliver)
	var i int32
	if n := len(l.free); n > 0 {
		i = l.free[n-1]
		l.free = l.free[:n-1]
	} else {
		i = int32(len(l.slots))
		l.slots = append(l.slots, slot{})
	}
	s := &l.slots[i]
	s.sent = sent
	s.data = copyInto(s.data, payload)
	l.fly.push(flight{deliver: deliver, seq: l.seq, slot: i})
	l.seq++
}

// copyInto copies p into buf, reallocating buf only if it is too small.
// New buffers are sized up to a power of two (at least 64 bytes, at most
// 64 KiB of headroom), so a slot settles on a size that fits the payloads
// it carries and steady state allocates nothing.
func copyInto(buf, p []byte) []byte {
	if cap(buf) < len(p) {
		size := 64
		for size < len(p) && size < 64<<10 {
			size *= 2
		}
		buf = make([]byte, 0, max(size, len(p)))
	}
	return append(buf[:0], p...)
}

// Receive returns the packets whose delivery time is at or before now,
// ordered by delivery time and, for equal times, by the order they were
// sent. The slice and each packet's Data stay valid until the next Receive
// or Reset on this link; the result is empty when nothing is due.
func (l *Link) Receive(now time.Duration) []Packet {
	l.free = append(l.free, l.lent...)
	l.lent = l.lent[:0]
	clear(l.out)
	l.out = l.out[:0]
	for l.fly.len() > 0 && l.fly.min().deliver <= now {
		f := l.fly.pop()
		s := &l.slots[f.slot]
		l.out = append(l.out, Packet{Data: s.data, Sent: s.sent, Deliver: f.deliver})
		l.lent = append(l.lent, f.slot)
		l.stats.Delivered++
		l.stats.BytesDelivered += uint64(len(s.data))
	}
	return l.out
}

// Reset drops every packet in flight and in the bandwidth queue, zeroes
// the counters and rewinds the random stream to its start, so the link
// then behaves exactly like NewLink(l.Conditions(), seed). Buffers are kept
// for reuse; packets from the last Receive become invalid.
func (l *Link) Reset() {
	l.fly.clear()
	l.lent = l.lent[:0]
	l.free = l.free[:0]
	for i := len(l.slots) - 1; i >= 0; i-- {
		l.free = append(l.free, int32(i))
	}
	clear(l.out)
	l.out = l.out[:0]
	l.queue.reset()
	l.rng = newRNG(l.seed)
	l.loss = lossModel{}
	l.loss.configure(l.cond.Loss, l.cond.BurstLen)
	l.seq, l.latest = 0, 0
	l.stats = Stats{}
}
