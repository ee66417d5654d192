//go:build !cubefma

package physics

// mulAddProbe returns a*b + c with the product rounded (mul), as every
// product in the step is. The solver's soft normal row uses it, so that
// the test build below can leave that one product unrounded.
func mulAddProbe(a, b, c float64) float64 { return mul(a, b) + c }
