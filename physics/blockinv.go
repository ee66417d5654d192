package physics

// blockInv is the inverse of a contact's block matrix for all its points,
// made once a step (a division-free multiplication per pass after that);
// with a null space given, projected on both sides so that it never makes
// impulses along it (blockSolve).
//
// Four points, a face on a face, is the common case, and the only one
// with a null space: its inverse, projection and product are written out
// (make4, project4, apply) with the operations of loops over any count
// (makeLoops; the projection's loops are the test's) in the same order,
// so that they give the same bits without the loops' bounds checks and
// branches (TestMake4MatchesLoops).
type blockInv struct {
	m    [maxPoints][maxPoints]float64
	n    int8  // rows; 0 when there is none (not made, or the matrix is not positive definite)
	soft uint8 // for a contact's soft matrix: which rows are soft (bit i: row i)
}

// make inverts the matrix of all n points of k with diagonal diag, and
// for four points projects it off null when that is not nil (fewer
// points have no null space).
func (bi *blockInv) make(n int, diag *[maxPoints]float64, k *[6]float64, null *[maxPoints]float64) {
	if n == maxPoints {
		bi.make4(diag, k, null)
		return
	}
	bi.makeLoops(n, diag, k)
}

// makeLoops is make for any count of points without a null space, by
// LDLᵀ and a solve for each unit vector.
func (bi *blockInv) makeLoops(n int, diag *[maxPoints]float64, k *[6]float64) {
	var a [maxPoints][maxPoints]float64
	for i := 0; i < n; i++ {
		a[i][i] = diag[i]
		for j := 0; j < i; j++ {
			a[i][j] = kOff(k, i, j)
		}
	}
	bi.n = 0
	var f ldlFactor
	if !f.factor(n, &a) {
		return
	}
	for j := 0; j < n; j++ {
		var x [maxPoints]float64
		f.solveUnit(n, j, &x)
		for i := 0; i < n; i++ {
			bi.m[i][j] = x[i]
		}
	}
	bi.n = int8(n)
}

// make4 is makeLoops for four points, written out: ldlFactor.factor's
// pivots and multipliers, then solveUnit's forward and backward passes
// for each column, each sum in the loops' order.
func (bi *blockInv) make4(diag *[maxPoints]float64, k *[6]float64, null *[maxPoints]float64) {
	bi.n = 0
	// factor: a's diagonal is diag, below it kOff (the upper triangle k,
	// in the order (0,1) (0,2) (0,3) (1,2) (1,3) (2,3)).
	a00, a11, a22, a33 := diag[0], diag[1], diag[2], diag[3]
	a10, a20, a30, a21, a31, a32 := k[0], k[1], k[2], k[3], k[4], k[5]
	d0 := a00
	if !(d0 > mul(1e-12, a00)) {
		return
	}
	l10, l20, l30 := a10/d0, a20/d0, a30/d0
	d1 := a11 - mul(mul(l10, l10), d0)
	if !(d1 > mul(1e-12, a11)) {
		return
	}
	l21 := (a21 - mul(mul(l20, l10), d0)) / d1
	l31 := (a31 - mul(mul(l30, l10), d0)) / d1
	d2 := a22 - mul(mul(l20, l20), d0) - mul(mul(l21, l21), d1)
	if !(d2 > mul(1e-12, a22)) {
		return
	}
	l32 := (a32 - mul(mul(l30, l20), d0) - mul(mul(l31, l21), d1)) / d2
	d3 := a33 - mul(mul(l30, l30), d0) - mul(mul(l31, l31), d1) - mul(mul(l32, l32), d2)
	if !(d3 > mul(1e-12, a33)) {
		return
	}
	// solveUnit's backward pass starts a row above the unit's from +0,
	// or from 0/d where a pivot is not positive (which factor lets
	// through only for a negative diagonal).
	z0, z1, z2 := 0.0, 0.0, 0.0
	if !(d0 > 0) {
		z0 = 0.0 / d0
	}
	if !(d1 > 0) {
		z1 = 0.0 / d1
	}
	if !(d2 > 0) {
		z2 = 0.0 / d2
	}
	m := &bi.m
	// Column 0: y = (1, y1, y2, y3).
	{
		y0 := 1.0
		y1 := 0.0 - mul(l10, y0)
		y2 := 0.0 - mul(l20, y0) - mul(l21, y1)
		y3 := 0.0 - mul(l30, y0) - mul(l31, y1) - mul(l32, y2)
		x3 := y3 / d3
		x2 := y2/d2 - mul(l32, x3)
		x1 := y1/d1 - mul(l21, x2) - mul(l31, x3)
		x0 := y0/d0 - mul(l10, x1) - mul(l20, x2) - mul(l30, x3)
		m[0][0], m[1][0], m[2][0], m[3][0] = x0, x1, x2, x3
	}
	// Column 1: y = (0, 1, y2, y3).
	{
		y1 := 1.0
		y2 := 0.0 - mul(l21, y1)
		y3 := 0.0 - mul(l31, y1) - mul(l32, y2)
		x3 := y3 / d3
		x2 := y2/d2 - mul(l32, x3)
		x1 := y1/d1 - mul(l21, x2) - mul(l31, x3)
		x0 := z0 - mul(l10, x1) - mul(l20, x2) - mul(l30, x3)
		m[0][1], m[1][1], m[2][1], m[3][1] = x0, x1, x2, x3
	}
	// Column 2: y = (0, 0, 1, y3).
	{
		y2 := 1.0
		y3 := 0.0 - mul(l32, y2)
		x3 := y3 / d3
		x2 := y2/d2 - mul(l32, x3)
		x1 := z1 - mul(l21, x2) - mul(l31, x3)
		x0 := z0 - mul(l10, x1) - mul(l20, x2) - mul(l30, x3)
		m[0][2], m[1][2], m[2][2], m[3][2] = x0, x1, x2, x3
	}
	// Column 3: y = (0, 0, 0, 1).
	{
		y3 := 1.0
		x3 := y3 / d3
		x2 := z2 - mul(l32, x3)
		x1 := z1 - mul(l21, x2) - mul(l31, x3)
		x0 := z0 - mul(l10, x1) - mul(l20, x2) - mul(l30, x3)
		m[0][3], m[1][3], m[2][3], m[3][3] = x0, x1, x2, x3
	}
	if null != nil {
		bi.project4(null)
	}
	bi.n = maxPoints
}

// project4 replaces the four-point inverse M by P M P with P = I - z zᵀ,
// z the unit null vector: M - z (zᵀM) - (M z) zᵀ + (zᵀ M z) z zᵀ, each
// sum in the order of loops over rows and columns (TestMake4MatchesLoops
// compares it with them, projectLoops).
func (bi *blockInv) project4(z *[maxPoints]float64) {
	m := &bi.m
	z0, z1, z2, z3 := z[0], z[1], z[2], z[3]
	mz0 := 0.0 + mul(m[0][0], z0) + mul(m[0][1], z1) + mul(m[0][2], z2) + mul(m[0][3], z3)
	mz1 := 0.0 + mul(m[1][0], z0) + mul(m[1][1], z1) + mul(m[1][2], z2) + mul(m[1][3], z3)
	mz2 := 0.0 + mul(m[2][0], z0) + mul(m[2][1], z1) + mul(m[2][2], z2) + mul(m[2][3], z3)
	mz3 := 0.0 + mul(m[3][0], z0) + mul(m[3][1], z1) + mul(m[3][2], z2) + mul(m[3][3], z3)
	zmz := 0.0 + mul(z0, mz0) + mul(z1, mz1) + mul(z2, mz2) + mul(z3, mz3)
	m[0][0] += mul(mul(z0, z0), zmz) - mul(z0, mz0) - mul(mz0, z0)
	m[0][1] += mul(mul(z0, z1), zmz) - mul(z0, mz1) - mul(mz0, z1)
	m[0][2] += mul(mul(z0, z2), zmz) - mul(z0, mz2) - mul(mz0, z2)
	m[0][3] += mul(mul(z0, z3), zmz) - mul(z0, mz3) - mul(mz0, z3)
	m[1][0] += mul(mul(z1, z0), zmz) - mul(z1, mz0) - mul(mz1, z0)
	m[1][1] += mul(mul(z1, z1), zmz) - mul(z1, mz1) - mul(mz1, z1)
	m[1][2] += mul(mul(z1, z2), zmz) - mul(z1, mz2) - mul(mz1, z2)
	m[1][3] += mul(mul(z1, z3), zmz) - mul(z1, mz3) - mul(mz1, z3)
	m[2][0] += mul(mul(z2, z0), zmz) - mul(z2, mz0) - mul(mz2, z0)
	m[2][1] += mul(mul(z2, z1), zmz) - mul(z2, mz1) - mul(mz2, z1)
	m[2][2] += mul(mul(z2, z2), zmz) - mul(z2, mz2) - mul(mz2, z2)
	m[2][3] += mul(mul(z2, z3), zmz) - mul(z2, mz3) - mul(mz2, z3)
	m[3][0] += mul(mul(z3, z0), zmz) - mul(z3, mz0) - mul(mz3, z0)
	m[3][1] += mul(mul(z3, z1), zmz) - mul(z3, mz1) - mul(mz3, z1)
	m[3][2] += mul(mul(z3, z2), zmz) - mul(z3, mz2) - mul(mz3, z2)
	m[3][3] += mul(mul(z3, z3), zmz) - mul(z3, mz3) - mul(mz3, z3)
}

// apply sets x to the inverse times b.
func (bi *blockInv) apply(b, x *[maxPoints]float64) {
	if bi.n == maxPoints {
		m := &bi.m
		b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
		x[0] = 0.0 + mul(m[0][0], b0) + mul(m[0][1], b1) + mul(m[0][2], b2) + mul(m[0][3], b3)
		x[1] = 0.0 + mul(m[1][0], b0) + mul(m[1][1], b1) + mul(m[1][2], b2) + mul(m[1][3], b3)
		x[2] = 0.0 + mul(m[2][0], b0) + mul(m[2][1], b1) + mul(m[2][2], b2) + mul(m[2][3], b3)
		x[3] = 0.0 + mul(m[3][0], b0) + mul(m[3][1], b1) + mul(m[3][2], b2) + mul(m[3][3], b3)
		return
	}
	n := int(bi.n)
	for i := 0; i < n; i++ {
		t := 0.0
		for j := 0; j < n; j++ {
			t += mul(bi.m[i][j], b[j])
		}
		x[i] = t
	}
}
