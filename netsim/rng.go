package netsim

import (
	"math/bits"

	"github.com/cubelab/cube/splitmix"
)

// rng is xoshiro256** (Blackman and Vigna), seeded through splitmix64.
// It is small, fast, passes BigCrush, and — unlike math/rand's global
// source — belongs to one link, so a run is reproduced by its seed alone.
type rng struct {
	s [4]uint64
}

// newRNG returns a generator whose state is the first four splitmix64
// values after seed. The state is never all zero: splitmix64 is a bijection
// of its counter, so four consecutive outputs cannot all be zero.
func newRNG(seed uint64) rng {
	var r rng
	for i := range r.s {
		r.s[i] = splitmix.Next(&seed)
	}
	return r
}

// next returns the next 64 random bits.
func (r *rng) next() uint64 {
	s := &r.s
	result := bits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = bits.RotateLeft64(s[3], 45)
	return result
}

// float64 returns a uniform value in [0, 1) with 53 random bits, so that
// u < p is true with probability exactly p for p = 0 and p = 1.
func (r *rng) float64() float64 {
	return float64(r.next()>>11) * (1.0 / (1 << 53))
}

// below returns a value in [0, n) for n > 0, using one draw: the high word
// of a 64x64-bit product (Lemire's method without the rejection step).
// The bias is at most n/2^64 per outcome, below 2^-30 for any n this
// package uses (n <= 2*MaxDelay+1 < 2^34), and in exchange every call
// consumes exactly one value, which keeps the draw count per packet fixed.
func (r *rng) below(n uint64) uint64 {
	hi, _ := bits.Mul64(r.next(), n)
	return hi
}
