// Package tick holds what client and server both keep tick by tick: a ring
// of per-tick values, wrap-safe tick order, the length of a tick, the
// histogram of input buffer depths, the catch-up caps of every clock and
// the pacer of real-time turns that applies them.
package tick

import (
	"math"
	"time"
)

// RingSize is the number of ticks a ring keeps: 32 s at 64 Hz. It bounds
// how far back a client can replay from, so how long a repair may take to
// arrive and still be taken: on the outage preset (2 s round trip, half
// the packets lost) a repair of the cubes scene takes up to 24 s. A slot of
// every ring is a few bytes to a few hundred (a body state); the states
// kept for rewinds are bounded by the ticks in flight, not by the ring.
const RingSize = 2048

// Duration is the length of one tick of a world whose step is dt seconds
// (physics.Config.Dt), rounded to the nanosecond (15.625 ms, exact, for
// the default 64 Hz). The physics configuration is the one source of the
// tick rate: clocks and limits derive from it.
func Duration(dt float64) time.Duration {
	return time.Duration(math.Round(dt * float64(time.Second)))
}

// After reports whether tick a comes after tick b, wrap-safe: ticks are
// uint32 and a session may cross 2³² (after 776 days at 64 Hz, or at once
// when it starts near the top). It holds while the two are less than 2³¹
// ticks apart.
func After(a, b uint32) bool { return int32(a-b) > 0 }

// Ring holds one value per tick for the last RingSize ticks. A slot is
// valid only if it holds the tick asked for, so an old value is never
// mistaken for a new one after the ring wraps.
type Ring[T any] struct {
	tick  [RingSize]uint32
	valid [RingSize]bool
	val   [RingSize]T
}

// Put marks slot t as holding tick t and returns it for writing.
func (r *Ring[T]) Put(t uint32) *T {
	i := t % RingSize
	r.tick[i], r.valid[i] = t, true
	return &r.val[i]
}

// Newer reports whether t's slot holds a tick after t: putting t there
// would overwrite a newer value.
func (r *Ring[T]) Newer(t uint32) bool {
	i := t % RingSize
	return r.valid[i] && After(r.tick[i], t)
}

// Reset empties the ring.
func (r *Ring[T]) Reset() { r.valid = [RingSize]bool{} }

// Get returns the value stored for tick t, if the slot still holds it.
func (r *Ring[T]) Get(t uint32) (*T, bool) {
	i := t % RingSize
	if !r.valid[i] || r.tick[i] != t {
		return nil, false
	}
	return &r.val[i], true
}
