package physics

import "math"

// FNV-1a 64-bit parameters.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// Hash returns the hash of the state: FNV-1a 64 applied to 64-bit words
// (each word is xored in whole, then multiplied by the FNV prime: one
// multiply per word where the byte-wise FNV-1a takes eight), over the bit
// patterns of the whole state in the codec's order (AppendState):
//
//	tick | body count << 32
//	per body: its 19 float64 words (position, rotation w x y z, velocity,
//	          angular velocity, force, torque), then rest | flags << 32
//	contact count
//	per contact: uint32(A) | uint32(B) << 32, feature, Pn, Pt1, Pt2
//
// The word-wise variant is used because the client and the server hash the
// state every tick: for the cubes scene (about 150 KB of bodies and 250 KB
// of contacts) the byte-wise hash cost as much as a step. Every field still
// enters the hash whole and in a fixed order, so a change to any bit
// changes the words hashed.
func (s *State) Hash() uint64 {
	h := uint64(fnvOffset)
	f := math.Float64bits
	h = (h ^ (uint64(s.Tick) | uint64(uint32(len(s.Bodies)))<<32)) * fnvPrime
	for i := range s.Bodies {
		b := &s.Bodies[i]
		h = (h ^ f(b.Pos.X)) * fnvPrime
		h = (h ^ f(b.Pos.Y)) * fnvPrime
		h = (h ^ f(b.Pos.Z)) * fnvPrime
		h = (h ^ f(b.Rot.W)) * fnvPrime
		h = (h ^ f(b.Rot.X)) * fnvPrime
		h = (h ^ f(b.Rot.Y)) * fnvPrime
		h = (h ^ f(b.Rot.Z)) * fnvPrime
		h = (h ^ f(b.Vel.X)) * fnvPrime
		h = (h ^ f(b.Vel.Y)) * fnvPrime
		h = (h ^ f(b.Vel.Z)) * fnvPrime
		h = (h ^ f(b.AngVel.X)) * fnvPrime
		h = (h ^ f(b.AngVel.Y)) * fnvPrime
		h = (h ^ f(b.AngVel.Z)) * fnvPrime
		h = (h ^ f(b.Force.X)) * fnvPrime
		h = (h ^ f(b.Force.Y)) * fnvPrime
		h = (h ^ f(b.Force.Z)) * fnvPrime
		h = (h ^ f(b.Torque.X)) * fnvPrime
		h = (h ^ f(b.Torque.Y)) * fnvPrime
		h = (h ^ f(b.Torque.Z)) * fnvPrime
		h = (h ^ (uint64(b.Rest) | uint64(bodyFlags(b))<<32)) * fnvPrime
	}
	h = (h ^ uint64(uint32(len(s.Contacts)))) * fnvPrime
	for i := range s.Contacts {
		c := &s.Contacts[i]
		h = (h ^ (uint64(uint32(c.A)) | uint64(uint32(c.B))<<32)) * fnvPrime
		h = (h ^ uint64(c.Feature)) * fnvPrime
		h = (h ^ f(c.Pn)) * fnvPrime
		h = (h ^ f(c.Pt1)) * fnvPrime
		h = (h ^ f(c.Pt2)) * fnvPrime
	}
	return h
}

// fnv1a returns the byte-wise FNV-1a 64 hash of b.
func fnv1a(b []byte) uint64 {
	h := uint64(fnvOffset)
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}
