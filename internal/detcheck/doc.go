// Package detcheck is a go/analysis analyzer for the engine's determinism
// rules (docs/determinism.md, "The rules the engine follows"). It reports:
//
//   - fma: a float product that feeds an addition or a subtraction without
//     an explicit rounding (float64(a*b), or the mul helper), directly,
//     through parentheses and negation, through a local variable or a field
//     of a local struct, through the result of a function of the same
//     package, or as the argument of a function of the same package whose
//     parameter is added in its body. Go may fuse such a pair into one
//     multiply-add instruction on arm64, ppc64le, s390x, riscv64, loong64
//     and amd64 with GOAMD64=v3, which changes the bits.
//   - math: a math function outside the exactly rounded ones (Sqrt, Abs,
//     Floor, Ceil, Trunc, Round, RoundToEven, Min, Max, Copysign, Signbit,
//     IsNaN, IsInf, Inf, NaN, Nextafter, Frexp, Ldexp, Modf, FMA and the
//     bit conversions): Sin, Cos, Exp, Log, Pow, Atan2 and the rest differ
//     across CPUs.
//   - maprange: a range over a map, or maps.Keys, maps.Values, maps.All.
//   - goroutine: a go statement, or sync.WaitGroup.Go.
//   - clock: time.Now, time.Since and the other functions that read the
//     clock or wait on it.
//   - rand: a function of math/rand or math/rand/v2 that uses the global
//     source.
//   - float32: the float32 type, or a value of it.
//   - allow: a //cube:allow comment without a known rule or without a
//     reason.
//
// A comment "//cube:allow RULE reason" (RULE one of the names above, or
// several joined by commas) silences that rule on its own line, or, when the
// comment stands alone on its line, on the next line. Test files are not
// checked. The -rules flag chooses the rules (default all; "order" is
// maprange, goroutine, clock and rand).
package detcheck
