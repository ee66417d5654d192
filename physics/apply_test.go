package physics

import (
	"math"
	"testing"
)

// applyLoop is blockInv.apply's general loop, for any row count.
func applyLoop(bi *blockInv, b, x *[maxPoints]float64) {
	n := int(bi.n)
	for i := 0; i < n; i++ {
		t := 0.0
		for j := 0; j < n; j++ {
			t += mul(bi.m[i][j], b[j])
		}
		x[i] = t
	}
}

// TestApplyWrittenOutMatchesLoop: the written-out product of four rows
// gives the loop's bits, the sign of a zero included (a row whose
// products are all -0 sums to +0 from the loop's +0 start).
func TestApplyWrittenOutMatchesLoop(t *testing.T) {
	negz := math.Copysign(0, -1)
	rows := [][maxPoints]float64{
		{1, -2, 3.5, 1e-300},
		{negz, negz, negz, negz},
		{1e300, 1e300, -1e300, 0.1},
		{0.1, 0.2, 0.3, 0.4},
	}
	bs := [][maxPoints]float64{{1, 1, 1, 1}, {0.5, -0.25, 3, 7}, {negz, 1, negz, 2}, {1e10, -1e-10, 3, negz}}
	for _, b := range bs {
		bi := blockInv{n: maxPoints}
		for i := range rows {
			bi.m[i] = rows[(i+int(b[3]))%len(rows)]
			if i == 1 {
				bi.m[i] = rows[1]
			}
		}
		var got, want [maxPoints]float64
		bi.apply(&b, &got)
		applyLoop(&bi, &b, &want)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("b %v row %d: %v, loop %v", b, i, got[i], want[i])
			}
		}
	}
}

// BenchmarkBlockApply measures the product of a contact's block inverse
// with a right-hand side, which every block solve of four points runs.
func BenchmarkBlockApply(b *testing.B) {
	bi := blockInv{n: maxPoints, m: [maxPoints][maxPoints]float64{{4, 1, 0.5, 0.25}, {1, 4, 1, 0.5}, {0.5, 1, 4, 1}, {0.25, 0.5, 1, 4}}}
	rhs := [maxPoints]float64{0.1, -0.2, 0.3, 0.05}
	var x [maxPoints]float64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bi.apply(&rhs, &x)
		rhs[0] = x[3] * 1e-3
	}
}
