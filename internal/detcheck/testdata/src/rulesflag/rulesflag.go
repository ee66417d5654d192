package rulesflag

import (
	"math"
	"time"
)

// Under -rules order, display maths is not checked but the clock is.
func smooth(x, dt float64) float64 {
	_ = time.Now() // want `clock: time.Now`
	return x*math.Pow(0.9, dt) + 1
}
