package physics

import (
	"fmt"
	"math"
)

// FieldDiff is one field that differs between two states.
type FieldDiff struct {
	Where string // "tick", "bodies", "body 0", "contacts", "contact 3"
	Field string // "pos.x", "pn", "count", ...
	A, B  uint64 // the two values' bit patterns (a float64's bits, or an integer)
	Float bool   // A and B are float64 bit patterns
}

// String formats the difference with both values as decimals and as bits.
func (d FieldDiff) String() string {
	if !d.Float {
		return fmt.Sprintf("%s %s: %d != %d", d.Where, d.Field, d.A, d.B)
	}
	fa, fb := math.Float64frombits(d.A), math.Float64frombits(d.B)
	return fmt.Sprintf("%s %s: %.17g (%#016x) != %.17g (%#016x), difference %.3g",
		d.Where, d.Field, fa, d.A, fb, d.B, fa-fb)
}

// Diff lists the fields whose bits differ between a and b, in canonical
// order, at most max of them (max <= 0: all).
func Diff(a, b *State, max int) []FieldDiff {
	var out []FieldDiff
	add := func(d FieldDiff) bool {
		out = append(out, d)
		return max > 0 && len(out) >= max
	}
	if a.Tick != b.Tick && add(FieldDiff{Where: "tick", Field: "tick", A: uint64(a.Tick), B: uint64(b.Tick)}) {
		return out
	}
	if len(a.Bodies) != len(b.Bodies) && add(FieldDiff{Where: "bodies", Field: "count", A: uint64(len(a.Bodies)), B: uint64(len(b.Bodies))}) {
		return out
	}
	for i := 0; i < min(len(a.Bodies), len(b.Bodies)); i++ {
		wa, wb := bodyWords(&a.Bodies[i]), bodyWords(&b.Bodies[i])
		for k := range wa {
			if wa[k] != wb[k] && add(FieldDiff{Where: fmt.Sprintf("body %d", i), Field: bodyFields[k], A: wa[k], B: wb[k], Float: k < bodyFloatWords}) {
				return out
			}
		}
	}
	if len(a.Contacts) != len(b.Contacts) && add(FieldDiff{Where: "contacts", Field: "count", A: uint64(len(a.Contacts)), B: uint64(len(b.Contacts))}) {
		return out
	}
	for i := 0; i < min(len(a.Contacts), len(b.Contacts)); i++ {
		wa, wb := contactWords(&a.Contacts[i]), contactWords(&b.Contacts[i])
		for k := range wa {
			if wa[k] != wb[k] && add(FieldDiff{Where: fmt.Sprintf("contact %d", i), Field: contactFields[k], A: wa[k], B: wb[k], Float: k >= 3}) {
				return out
			}
		}
	}
	return out
}
