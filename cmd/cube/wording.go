package main

import (
	"fmt"
	"math"
)

// plural returns "1 jump" or "n jumps": n and the noun, with an s unless n
// is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// metres formats a length for a summary in a unit that shows its digits:
// "0 m" for an exact zero, µm below a millimetre, mm below a metre.
func metres(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0 m"
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprint(v)
	case a < 1e-3:
		return fmt.Sprintf("%.1f µm", v*1e6)
	case a < 1:
		return fmt.Sprintf("%.2f mm", v*1e3)
	}
	return fmt.Sprintf("%.3f m", v)
}

// modeName is syncName for a mode given by its flag value.
type modeName string

func (m modeName) String() string { return string(m) }
