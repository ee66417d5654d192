package physics

import "math"

// Field names of a body and of a contact, in the order of their words in
// hashes, encodings and diffs.
var (
	bodyFields = [bodyWordCount]string{
		"pos.x", "pos.y", "pos.z",
		"rot.w", "rot.x", "rot.y", "rot.z",
		"vel.x", "vel.y", "vel.z",
		"angvel.x", "angvel.y", "angvel.z",
		"force.x", "force.y", "force.z",
		"torque.x", "torque.y", "torque.z",
		"rest", "flags",
	}
	contactFields = [contactWordCount]string{
		"a", "b", "feature",
		"pn", "pt1", "pt2",
	}
)

const (
	bodyFloatWords   = 19 // the float64 words of a body; then rest and flags, as uint32
	bodyWordCount    = bodyFloatWords + 2
	contactWordCount = 6
)

// Body flag bits, in the flags word.
const (
	flagAsleep   = 1
	flagDisabled = 2
	flagMask     = flagAsleep | flagDisabled
)

// bodyFlags returns the flags word of b.
func bodyFlags(b *BodyState) uint32 {
	var f uint32
	if b.Asleep {
		f |= flagAsleep
	}
	if b.Disabled {
		f |= flagDisabled
	}
	return f
}

// bodyWords returns the bit patterns of a body's fields in canonical order;
// the two integers are stored as their uint32 values.
func bodyWords(b *BodyState) [bodyWordCount]uint64 {
	f := math.Float64bits
	return [bodyWordCount]uint64{
		f(b.Pos.X), f(b.Pos.Y), f(b.Pos.Z),
		f(b.Rot.W), f(b.Rot.X), f(b.Rot.Y), f(b.Rot.Z),
		f(b.Vel.X), f(b.Vel.Y), f(b.Vel.Z),
		f(b.AngVel.X), f(b.AngVel.Y), f(b.AngVel.Z),
		f(b.Force.X), f(b.Force.Y), f(b.Force.Z),
		f(b.Torque.X), f(b.Torque.Y), f(b.Torque.Z),
		uint64(b.Rest), uint64(bodyFlags(b)),
	}
}

// setBodyWords is the inverse of bodyWords for words that bodyWords can
// produce (rest and flags below 2³², no unknown flag bits).
func setBodyWords(b *BodyState, w *[bodyWordCount]uint64) {
	f := math.Float64frombits
	b.Pos = Vec3{f(w[0]), f(w[1]), f(w[2])}
	b.Rot = Quat{f(w[3]), f(w[4]), f(w[5]), f(w[6])}
	b.Vel = Vec3{f(w[7]), f(w[8]), f(w[9])}
	b.AngVel = Vec3{f(w[10]), f(w[11]), f(w[12])}
	b.Force = Vec3{f(w[13]), f(w[14]), f(w[15])}
	b.Torque = Vec3{f(w[16]), f(w[17]), f(w[18])}
	b.Rest = uint32(w[19])
	b.Asleep = w[20]&flagAsleep != 0
	b.Disabled = w[20]&flagDisabled != 0
}

// contactWords returns a contact's fields in canonical order; the three
// integers are stored as their uint32 bit patterns.
func contactWords(c *ContactState) [contactWordCount]uint64 {
	f := math.Float64bits
	return [contactWordCount]uint64{
		uint64(uint32(c.A)), uint64(uint32(c.B)), uint64(c.Feature),
		f(c.Pn), f(c.Pt1), f(c.Pt2),
	}
}

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
