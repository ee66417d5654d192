package detcheck

import (
	"go/ast"
	"go/types"
)

// exactMath are the math functions whose results are exactly specified, so
// the same on every CPU: square root, sign and rounding to integers, bit
// conversions, and FMA itself (correctly rounded everywhere).
var exactMath = map[string]bool{
	"Sqrt": true, "Abs": true, "Floor": true, "Ceil": true, "Trunc": true,
	"Round": true, "RoundToEven": true, "Min": true, "Max": true,
	"Copysign": true, "Signbit": true, "IsNaN": true, "IsInf": true,
	"Inf": true, "NaN": true, "Nextafter": true, "Frexp": true,
	"Ldexp": true, "Modf": true, "FMA": true,
	"Float64bits": true, "Float64frombits": true,
	"Float32bits": true, "Float32frombits": true,
}

// clockFuncs read the clock or wait on it.
var clockFuncs = map[string]bool{
	"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true,
	"AfterFunc": true, "Tick": true, "NewTimer": true, "NewTicker": true,
}

// randConstructors build a source of one's own, which is fine when seeded.
var randConstructors = map[string]bool{
	"New": true, "NewSource": true, "NewZipf": true, "NewPCG": true, "NewChaCha8": true,
}

// mapIterators yield a map's entries in the map's random order.
var mapIterators = map[string]bool{"Keys": true, "Values": true, "All": true}

// checkFile reports the rules other than fma in one file.
func (c *checker) checkFile(f *ast.File) {
	info := c.pass.TypesInfo
	float32Type := types.Universe.Lookup("float32")
	sorted := map[*ast.SelectorExpr]bool{} // maps.Keys(m) inside slices.Sorted: in order
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			c.report(n.Pos(), RuleGoroutine, "a go statement runs in an order the scheduler picks; fix: run the work in index order, or write per-worker results to slots merged in index order and mark the line //cube:allow goroutine REASON")
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Map); ok {
					c.report(n.Pos(), RuleMapRange, "range over a map visits its keys in a random order; fix: range over a slice, or over the keys sorted")
				}
			}
		case *ast.SelectorExpr:
			fn, ok := info.Uses[n.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil {
				return true
			}
			if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
				if fn.Pkg().Path() == "sync" && fn.Name() == "Go" {
					c.report(n.Pos(), RuleGoroutine, "WaitGroup.Go starts a goroutine, which runs in an order the scheduler picks; fix: run the work in index order, or write per-worker results to slots merged in index order and mark the line //cube:allow goroutine REASON")
				}
				return true
			}
			name := fn.Name()
			switch fn.Pkg().Path() {
			case "math":
				if !exactMath[name] {
					c.report(n.Pos(), RuleMath, "math.%s is not exactly rounded and differs across CPUs; fix: use + - * / and math.Sqrt, or compute it once outside the step (a constant, a table)", name)
				}
			case "time":
				if clockFuncs[name] {
					c.report(n.Pos(), RuleClock, "time.%s reads the clock; fix: take the tick or the time as an argument", name)
				}
			case "math/rand", "math/rand/v2":
				if !randConstructors[name] {
					c.report(n.Pos(), RuleRand, "rand.%s uses the global random source; fix: call the method of a seeded *rand.Rand passed in", name)
				}
			case "maps":
				if mapIterators[name] && !sorted[n] {
					c.report(n.Pos(), RuleMapRange, "maps.%s yields a map's entries in a random order; fix: collect the keys and sort them (slices.Sorted(maps.Keys(m)))", name)
				}
			}
		case *ast.Ident:
			if info.Uses[n] == float32Type {
				c.report(n.Pos(), RuleFloat32, "float32 in the simulation; fix: use float64")
			}
		case *ast.CallExpr:
			if sortsIterator(info, n) && len(n.Args) > 0 {
				if inner, ok := ast.Unparen(n.Args[0]).(*ast.CallExpr); ok {
					if sel, ok := ast.Unparen(inner.Fun).(*ast.SelectorExpr); ok {
						sorted[sel] = true
					}
				}
			}
			if isFloat32(info.TypeOf(n)) && !isConversion(info, n) {
				c.report(n.Pos(), RuleFloat32, "this call gives a float32; fix: use float64")
			}
		}
		return true
	})
}

// isFloat32 reports whether t is float32 or a type defined on it.
func isFloat32(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Float32
}

// isConversion reports whether call converts a value to a type.
func isConversion(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType()
}

// sortsIterator reports whether call is slices.Sorted, SortedFunc or
// SortedStableFunc, which put an iterator's values in order.
func sortsIterator(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "slices" {
		return false
	}
	switch fn.Name() {
	case "Sorted", "SortedFunc", "SortedStableFunc":
		return true
	}
	return false
}
