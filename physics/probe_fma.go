//go:build cubefma

package physics

// mulAddProbe is a*b + c without the explicit rounding, under the test
// build tag cubefma only: a compiler that fuses multiply-adds (arm64 does,
// amd64 at GOAMD64=v1 does not) gives other bits here, as a product left
// unrounded by mistake would. scripts/fma-trace.sh builds it for both and
// shows cube replay -diff-trace naming the solver stage it changes.
func mulAddProbe(a, b, c float64) float64 { return a*b + c }
