package physics

import "math"

// BodyWordCount is the number of 64-bit words of a body's state in its
// canonical order (the order of the hash, the codec and Diff).
const BodyWordCount = bodyWordCount

// ContactWordCount is the number of 64-bit words of a contact cache entry:
// A, B and Feature as integers, then float64 bit patterns.
const ContactWordCount = contactWordCount

// BodyWords returns the bit patterns of b's fields in canonical order.
func BodyWords(b *BodyState) [BodyWordCount]uint64 { return bodyWords(b) }

// SetBodyWords sets b from words in canonical order, the inverse of
// BodyWords for words it can produce.
func SetBodyWords(b *BodyState, w *[BodyWordCount]uint64) { setBodyWords(b, w) }

// BodyField returns the name of word k of a body ("pos.x", ...).
func BodyField(k int) string { return bodyFields[k] }

// ContactWords returns c's fields in canonical order.
func ContactWords(c *ContactState) [ContactWordCount]uint64 { return contactWords(c) }

// ContactFromWords is the inverse of ContactWords. Values that do not fit a
// world are refused later, by Check and Restore.
func ContactFromWords(w *[ContactWordCount]uint64) ContactState {
	f := math.Float64frombits
	return ContactState{
		A: int32(uint32(w[0])), B: int32(uint32(w[1])), Feature: uint32(w[2]),
		Pn: f(w[3]), Pt1: f(w[4]), Pt2: f(w[5]),
	}
}

// ContactKeyLess reports whether a comes before b in the contact cache's
// order (A, then B with the ground first, then the feature).
func ContactKeyLess(a, b *ContactState) bool { return a.key() < b.key() }
