package mathcalls

import "math"

// Bad: not exactly rounded.

func bad(x float64) float64 {
	a := math.Sin(x)        // want `math: math.Sin is not exactly rounded`
	b := math.Pow(x, 3)     // want `math: math.Pow is not exactly rounded`
	c := math.Atan2(x, 1)   // want `math: math.Atan2`
	f := math.Exp           // want `math: math.Exp`
	return a + b + c + f(x) // the value f holds was reported where it was taken
}

// Good: exact.

func good(x float64) float64 {
	y := math.Sqrt(x) + math.Abs(x) + math.Floor(x) + math.Round(x)
	y += math.Min(x, 1) + math.Max(x, 0) + math.Copysign(1, x) + math.Pi
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return math.Inf(1)
	}
	return math.Float64frombits(math.Float64bits(y))
}
