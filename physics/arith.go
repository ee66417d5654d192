package physics

import "math"

// mul returns a*b rounded to float64. Every product in the engine that feeds
// an addition goes through mul (or an explicit float64 conversion), so that
// the compiler cannot fuse it into a multiply-add instruction: that would
// change the bits on arm64 and on amd64 built with GOAMD64=v3.
func mul(a, b float64) float64 { return float64(a * b) }

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return x-x == 0 }

// clamp limits x to [lo, hi].
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// sqrt is math.Sqrt, correctly rounded on every CPU.
func sqrt(x float64) float64 { return math.Sqrt(x) }

// abs is math.Abs.
func abs(x float64) float64 { return math.Abs(x) }
