package fma

// mul is the rounding helper.
func mul(a, b float64) float64 { return float64(a * b) }

type vec struct{ X, Y float64 }

// Bad: each product feeds a sum unrounded.

func direct(a, b, c float64) float64 {
	return a*b + c // want `fma: a \* b feeds an addition without rounding, so Go may fuse them into one multiply-add \(arm64, GOAMD64=v3\); fix: float64\(a \* b\) or mul\(a, b\)$`
}

func subtraction(a, b, c float64) float64 {
	return c - a*b // want `fma: a \* b feeds a subtraction`
}

func negated(a, b, c float64) float64 {
	return -(a * b) + c // want `fma: a \* b feeds an addition`
}

func both(a, b, c, d float64) float64 {
	return a*b - c*d // want `fma: a \* b feeds a subtraction` `fma: c \* d feeds a subtraction`
}

func compound(a, b, c float64) float64 {
	c += a * b // want `fma: a \* b feeds an addition`
	return c
}

func nested(a, b, c, d float64) float64 {
	return (a*b)*c + d // want `fma: \(a \* b\) \* c feeds an addition`
}

func viaLocal(a, b, c float64) float64 {
	t := a * b
	return t + c // want `fma: t holds the unrounded product a \* b \(line 36\)`
}

func viaVar(a, b, c float64) float64 {
	var t = a * b
	u := t
	return c - u // want `fma: u holds the unrounded product a \* b`
}

func viaScaled(a, b, c float64) float64 {
	t := a
	t *= b
	return t + c // want `fma: t holds the unrounded product t \*= b`
}

func viaField(a, b, c float64) float64 {
	var v vec
	v.X = a * b
	return v.X + c // want `fma: v.X holds the unrounded product a \* b`
}

func prod(a, b float64) float64 { return a * b }

func viaResult(a, b, c float64) float64 {
	return prod(a, b) + c // want `fma: prod returns the unrounded product a \* b \(line 58\)`
}

func add(x, y float64) float64 { return x + y }

func viaArgument(a, b, c float64) float64 {
	return add(a*b, c) // want `fma: the unrounded product a \* b is passed to add, which adds its parameter x`
}

// Good: rounded, or never summed.

func rounded(a, b, c float64) float64 { return float64(a*b) + c }

func helper(a, b, c float64) float64 { return mul(a, b) + c }

func roundedLocal(a, b, c float64) float64 {
	t := float64(a * b)
	return t + c
}

func onlyProducts(a, b, c float64) float64 { return a * b * c }

func compared(a, b, c float64) bool { return a*b < c }

func quotient(a, b, c float64) float64 { return a/b + c }

func constants(c float64) float64 {
	const k = 2.0
	return k*0.5 + c
}

func integers(a, b, c int) int { return a*b + c }

func returnedNotSummed(a, b float64) float64 { return prod(a, b) * 2 }

func sumOfSums(a, b, c float64) float64 { return (a + b) + c }

func argumentNotAdded(a, b float64) float64 { return scaleOnly(a*b, b) }

func scaleOnly(x, y float64) float64 { return x * y }
