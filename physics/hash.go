package physics

// FNV-1a 64-bit parameters.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hasher is an FNV-1a 64 hash fed with little-endian words.
type hasher uint64

func (h *hasher) u64(v uint64) {
	x := uint64(*h)
	for i := 0; i < 8; i++ {
		x ^= v & 0xff
		x *= fnvPrime
		v >>= 8
	}
	*h = hasher(x)
}

func (h *hasher) u32(v uint32) {
	x := uint64(*h)
	for i := 0; i < 4; i++ {
		x ^= uint64(v & 0xff)
		x *= fnvPrime
		v >>= 8
	}
	*h = hasher(x)
}

// Hash returns the FNV-1a 64 hash of the state's bit patterns, fed in the
// same order and byte layout as AppendState writes them.
func (s *State) Hash() uint64 {
	h := hasher(fnvOffset)
	h.u32(s.Tick)
	h.u32(uint32(len(s.Bodies)))
	for i := range s.Bodies {
		w := bodyWords(&s.Bodies[i])
		for _, x := range w[:bodyFloatWords] {
			h.u64(x)
		}
		h.u32(uint32(w[bodyFloatWords]))
		h.u32(uint32(w[bodyFloatWords+1]))
	}
	h.u32(uint32(len(s.Contacts)))
	for i := range s.Contacts {
		w := contactWords(&s.Contacts[i])
		h.u32(uint32(w[0]))
		h.u32(uint32(w[1]))
		h.u32(uint32(w[2]))
		for _, x := range w[3:] {
			h.u64(x)
		}
	}
	return uint64(h)
}

// fnv1a returns the FNV-1a 64 hash of b.
func fnv1a(b []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}
