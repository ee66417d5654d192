package allow

import "math"

func trailing(x float64) float64 {
	return math.Sin(x) //cube:allow math only to draw the scene, never stepped
}

func standing(x, y float64) float64 {
	//cube:allow fma the display's offset: not part of the state
	return x*y + 1
}

func several(x, y float64) float64 {
	return math.Cos(x)*y + 1 //cube:allow math,fma display only
}

func wrongRule(x float64) float64 {
	return math.Exp(x) /* want `math: math.Exp` */ //cube:allow fma the wrong rule silences nothing
}

func onlyOneLine(x float64) float64 {
	//cube:allow math the next line only
	a := math.Sin(x)
	b := math.Sin(x) // want `math: math.Sin`
	return a + b
}

func bare(x float64) float64 {
	return math.Tan(x) /* want `allow: a bare //cube:allow` `math: math.Tan` */ //cube:allow
}

func noReason(x float64) float64 {
	return math.Log(x) /* want `allow: //cube:allow math has no reason` `math: math.Log` */ //cube:allow math
}

func unknown(x float64) float64 {
	return math.Log2(x) /* want `allow: //cube:allow names an unknown rule "trig"` `math: math.Log2` */ //cube:allow trig because
}
