package transport

import (
	"hash/fnv"
	"time"
)

// rateSlots is the size of handshakeRate's table: addresses share a slot
// by the hash of their IP, so that the table's memory is fixed however many
// addresses an attacker uses; two hosts that share one share its budget.
const rateSlots = 1 << 16

// HandshakeBurst is how many handshakes an address may begin at once
// before Options.HandshakesPerSec holds it back: as many as the
// connections one address may hold by default, so that a host's players
// all join at once.
const HandshakeBurst = 16

// handshakeRate is a token bucket per address for handshakes begun: rate
// tokens a second, at most HandshakeBurst held.
type handshakeRate struct {
	rate  float64
	slots []rateSlot
}

// rateSlot is one bucket: its tokens as of last.
type rateSlot struct {
	tokens float64
	last   time.Time
}

// newHandshakeRate returns the buckets for rate handshakes a second.
func newHandshakeRate(rate float64) *handshakeRate {
	return &handshakeRate{rate: rate, slots: make([]rateSlot, rateSlots)}
}

// evictCharge is what an eviction costs the evicted connection's
// address, in handshakes: a host whose connections a full server keeps
// closing for not joining (holders) runs out after a few, a host whose
// players join is never charged.
const evictCharge = 4

// slot returns ip's bucket, refilled to now.
func (r *handshakeRate) slot(ip string, now time.Time) *rateSlot {
	h := fnv.New32a()
	h.Write([]byte(ip))
	s := &r.slots[h.Sum32()%rateSlots]
	burst := float64(HandshakeBurst)
	if s.last.IsZero() {
		s.tokens = burst
	} else if d := now.Sub(s.last).Seconds(); d > 0 {
		s.tokens = min(burst, s.tokens+d*r.rate)
	}
	s.last = now
	return s
}

// take reports whether ip may begin a handshake at now, and spends its
// token if so.
func (r *handshakeRate) take(ip string, now time.Time) bool {
	s := r.slot(ip, now)
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

// charge spends n of ip's tokens at now, down to one burst below none.
func (r *handshakeRate) charge(ip string, n float64, now time.Time) {
	s := r.slot(ip, now)
	s.tokens = max(s.tokens-n, -HandshakeBurst)
}
