package netsim

import "time"

// departure records when an admitted packet's last byte leaves the queue.
type departure struct {
	at   time.Duration
	size int
}

// queue models the sender's bottleneck when Bandwidth > 0: a FIFO drained
// at a fixed byte rate. A packet starts serialising at max(now, the previous
// packet's departure) and departs len/Bandwidth later. Its bytes count as
// queued from admission until departure, so the bound covers the packet on
// the wire as well as those waiting behind it.
//
// Departures are kept in a ring whose capacity is a power of two; it grows
// only while the backlog is larger than ever before.
type queue struct {
	busyUntil time.Duration // departure of the last admitted packet
	bytes     int           // bytes admitted and not yet departed
	ring      []departure
	head, n   int
}

// admit drains the packets that have departed by now, then either queues
// a packet of size bytes and returns its departure time, or reports that it
// does not fit under limit (0 = no limit).
func (q *queue) admit(now time.Duration, size int, bandwidth int64, limit int) (time.Duration, bool) {
	q.drain(now)
	if limit > 0 && q.bytes+size > limit {
		return 0, false
	}
	at := max(now, q.busyUntil) + serialisation(size, bandwidth)
	q.busyUntil = at
	q.bytes += size
	if q.n == len(q.ring) {
		q.grow()
	}
	q.ring[(q.head+q.n)&(len(q.ring)-1)] = departure{at: at, size: size}
	q.n++
	return at, true
}

// drain forgets the packets whose last byte has left by now.
func (q *queue) drain(now time.Duration) {
	mask := len(q.ring) - 1
	for q.n > 0 && q.ring[q.head].at <= now {
		q.bytes -= q.ring[q.head].size
		q.head = (q.head + 1) & mask
		q.n--
	}
}

func (q *queue) grow() {
	ring := make([]departure, max(16, 2*len(q.ring)))
	for i := 0; i < q.n; i++ {
		ring[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
	}
	q.ring, q.head = ring, 0
}

// reset empties the queue and rewinds its clock, keeping the ring.
func (q *queue) reset() {
	q.busyUntil, q.bytes, q.head, q.n = 0, 0, 0, 0
}

// serialisation is the time to put size bytes on a wire of bandwidth bytes
// per second, rounded up to whole nanoseconds so that back-to-back packets
// never exceed the rate. size*1e9 fits in int64 for any size below 9.2 GB.
func serialisation(size int, bandwidth int64) time.Duration {
	n := int64(size) * int64(time.Second)
	d := n / bandwidth
	if n%bandwidth != 0 {
		d++
	}
	return time.Duration(d)
}
