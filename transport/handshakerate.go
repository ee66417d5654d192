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

// take reports whether ip may begin a handshake at now, and spends its
// token if so.
func (r *handshakeRate) take(ip string, now time.Time) bool {
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
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}
