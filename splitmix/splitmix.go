// Package splitmix is splitmix64 (Steele, Lea and Flood; Vigna's C code):
// the one small seeded generator of the project, so that nothing touches
// a global random source and every run is reproduced by its seed. The
// autopilot, the session's nudges and per-client seeds, and the seeding of
// netsim's links all draw from it.
package splitmix

// Next advances *x and returns the next value of the splitmix64 sequence.
// It spreads a seed (even 0 or a small integer) over all bits.
func Next(x *uint64) uint64 {
	*x += 0x9e3779b97f4a7c15
	z := *x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Rand is a splitmix64 generator. Its zero value is the sequence of seed 0;
// New starts one from another seed.
type Rand struct{ s uint64 }

// New returns a generator of the sequence of seed.
func New(seed uint64) Rand { return Rand{s: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 { return Next(&r.s) }

// Intn returns a number in [0, n), n > 0 (with a modulo bias below n/2⁶⁴).
func (r *Rand) Intn(n int) int { return int(r.Uint64() % uint64(n)) }

// Float64 returns a number in [0, 1) with 53 random bits.
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }
