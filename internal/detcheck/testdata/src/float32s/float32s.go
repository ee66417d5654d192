package float32s

import "math"

// Bad: float32 anywhere.

type pose struct {
	X float32 // want `float32: float32 in the simulation`
}

func widen(p pose) float64 {
	return float64(p.X)
}

func narrow(x float64) float64 {
	y := float32(x) // want `float32: float32 in the simulation`
	return float64(y)
}

func bits(x uint32) float64 {
	return float64(math.Float32frombits(x)) // want `float32: this call gives a float32`
}

// Good: float64 only.

type state struct{ X, V float64 }

func step(s state, dt float64) state {
	return state{X: s.X + float64(s.V*dt), V: s.V}
}
