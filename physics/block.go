package physics

// Block solve of a contact's normal rows. Solved one point after the
// other (Gauss-Seidel), the first point of a manifold always takes more
// than its share: a cube resting flat spins, one dropped flat bounces off
// tumbling, one hitting a wall face-on comes back turning. The points of a
// contact are therefore solved together: the impulses λ that meet every
// row at once,
//
//	(K + G) λ = -(v + b) - G P
//
// where K is the points' effective-mass matrix, K_ij = m1 + m2 +
// (r1i × d)·I1⁻¹(r1j × d) + (r2i × d)·I2⁻¹(r2j × d), v the points' normal
// velocities, b their bias and P their accumulated impulses. G is the
// diagonal of the soft constraint's compliance: a row of a point that
// overlaps, in the pass with the position correction, gets K_ii/a2 (Box2D
// v3's soft step, written for a block: one row alone gives back its
// massScale and impulseScale); a point still apart gets 0 (it closes the
// gap within the substep, rigidly) and so does every row of the relax
// pass: K_ii·blockEps, which keeps the matrix of four points on a face
// (of rank
// three: the impulses +1 -1 +1 -1 at the corners move nothing) invertible
// without changing what it moves. The impulses are those of a symmetric
// matrix solved the same way for every point, so a symmetric contact gets
// symmetric impulses and no spin, up to rounding.
//
// Accumulated impulses stay non-negative: a point whose impulse would turn
// negative is let go (its impulse set to zero) and the others solved again,
// at most once per point, as Box2D v2's block solver enumerates its two
// points' cases; if the solve still fails, the pass falls back to
// Gauss-Seidel for that contact.

// maxPoints is the most points a contact has.
const maxPoints = 4

// blockK returns the upper triangle of contact c's matrix K (without G), in
// the order (0,1) (0,2) (0,3) (1,2) (1,3) (2,3); the diagonal is 1/mn.
func blockK(c *constraint, pts []cpoint) (k [6]float64) {
	m12 := c.m1 + c.m2
	n := 0
	for i := 0; i < maxPoints-1; i++ {
		for j := i + 1; j < maxPoints; j++ {
			if i < len(pts) && j < len(pts) {
				v := m12 + pts[i].rn1.Dot(pts[j].in1)
				if c.s2 >= 0 {
					v += pts[i].rn2.Dot(pts[j].in2)
				}
				k[n] = v
			}
			n++
		}
	}
	return k
}

// kOff returns K_ij (i != j) from the upper triangle k.
func kOff(k *[6]float64, i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	return k[offIndex[i][j]]
}

// kFull returns K's off-diagonal entries from the upper triangle k as a
// full symmetric matrix (a zero diagonal), for the rounds of blockSolve
// to read without kOff's lookups.
func kFull(k *[6]float64) (kf [maxPoints][maxPoints]float64) {
	// offIndex, written out.
	kf[0][1], kf[1][0] = k[0], k[0]
	kf[0][2], kf[2][0] = k[1], k[1]
	kf[0][3], kf[3][0] = k[2], k[2]
	kf[1][2], kf[2][1] = k[3], k[3]
	kf[1][3], kf[3][1] = k[4], k[4]
	kf[2][3], kf[3][2] = k[5], k[5]
	return kf
}

// offIndex maps (i, j), i < j, to the index of K_ij in blockK's triangle.
var offIndex = [maxPoints][maxPoints]int{{0, 0, 1, 2}, {0, 0, 3, 4}, {0, 0, 0, 5}}

// blockSolve solves (K + G) λ = rhs for the n points of a contact (diag is
// K_ii + G_i) with the accumulated impulses pn kept non-negative: a point
// whose pn + λ would be negative is let go (λ = -pn) and the rest solved
// again. It returns false if the matrix is not positive definite on the
// points still held.
//
// When all four points are held and rigid (null, the unit vector of K's
// null space, is given), the right-hand side's component along null is
// dropped and so is the solution's: the impulses null moves nothing, and
// the tiny regularisation would otherwise blow that component up from the
// points' differing targets (a face tilted against another wants
// velocities at its corners no rigid motion has), leaving huge opposite
// impulses in the cache.
//
// full, when not nil, is the inverse of the matrix of all n points with
// this diag (blockInv, kept by the contact for the step): the first round,
// where every point is held, uses it instead of factoring.
func blockSolve(n int, diag, rhs, pn *[maxPoints]float64, k *[6]float64, null *[maxPoints]float64, full *blockInv, lam *[maxPoints]float64) bool {
	held := allHeld(n)
	return blockRounds(0, n, diag, rhs, pn, k, null, full, &held, lam)
}

// allHeld returns the held set of blockSolve's first round: every one of
// the n points.
func allHeld(n int) (held [maxPoints]bool) {
	for i := 0; i < n; i++ {
		held[i] = true
	}
	return held
}

// blockRounds is blockSolve from round from on, with the points held
// after the rounds before it.
func blockRounds(from, n int, diag, rhs, pn *[maxPoints]float64, k *[6]float64, null *[maxPoints]float64, full *blockInv, held *[maxPoints]bool, lam *[maxPoints]float64) bool {
	n = min(n, maxPoints) // no more: the compiler drops the bounds checks
	kf := kFull(k)
	for round := from; round <= n; round++ {
		// The system of the held points, those let go moved to the right.
		var idx [maxPoints]int
		m := 0
		for i := 0; i < n; i++ {
			if held[i] {
				idx[m] = i
				m++
			}
		}
		if m == 0 {
			for i := 0; i < n; i++ {
				lam[i] = -pn[i]
			}
			return letGoHolds(n, diag, rhs, &kf, lam, held)
		}
		b := heldRHS(n, m, &idx, rhs, pn, &kf, held)
		proj := m == maxPoints && null != nil
		if proj && !project(&b, null) {
			return false
		}
		var x [maxPoints]float64
		if round == 0 && full != nil {
			if int(full.n) != n {
				return false
			}
			full.apply(&b, &x)
		} else {
			var a [maxPoints][maxPoints]float64
			for p := 0; p < m; p++ {
				i := idx[p]
				a[p][p] = diag[i]
				for q := 0; q < p; q++ {
					a[p][q] = kf[i][idx[q]]
				}
			}
			var f ldlFactor
			if !f.factor(m, &a) {
				return false
			}
			f.solve(m, &b, &x)
		}
		if proj {
			project(&x, null) // the solution's component: rounding only
		}
		if takeRound(n, m, &idx, &x, pn, held, lam) {
			return letGoHolds(n, diag, rhs, &kf, lam, held)
		}
	}
	return false
}

// heldRHS returns the right-hand side of the system of the m held points
// idx names: each one's rhs less what the points let go (their impulse
// -pn removed) push through kf.
func heldRHS(n, m int, idx *[maxPoints]int, rhs, pn *[maxPoints]float64, kf *[maxPoints][maxPoints]float64, held *[maxPoints]bool) (b [maxPoints]float64) {
	for p := 0; p < m; p++ {
		i := idx[p]
		t := rhs[i]
		for j := 0; j < n; j++ {
			if !held[j] {
				t -= mul(kf[i][j], -pn[j])
			}
		}
		b[p] = t
	}
	return b
}

// takeRound sets lam from a round's solution x for the held points
// idx[:m] and -pn for those let go, lets go the held points whose
// accumulated impulse would turn negative, and reports whether none did.
func takeRound(n, m int, idx *[maxPoints]int, x, pn *[maxPoints]float64, held *[maxPoints]bool, lam *[maxPoints]float64) bool {
	n, m = min(n, maxPoints), min(m, maxPoints)
	ok := true
	for p := 0; p < m; p++ {
		i := idx[p]
		lam[i] = x[p]
		if pn[i]+x[p] < 0 {
			held[i], ok = false, false
		}
	}
	for i := 0; i < n; i++ {
		if !held[i] {
			lam[i] = -pn[i]
		}
	}
	return ok
}

// firstBlock is blockSolve with the inverse f of every point's matrix,
// its first round taken the quick way: the common case (every point held,
// no accumulated impulse turning negative) is a product with f; when an
// impulse turns negative, the first round's solution is the same product
// (when nothing is projected) or that of the projected right-hand side,
// and when that lets points go it returns blockMore with held set, for
// blockRounds to go on from round 1 as blockSolve would. The same
// operations in the same order as a product with f (the old fast path)
// followed, on failure, by a whole blockSolve, without the work they
// shared.
func firstBlock(n int, rhs, pn, null *[maxPoints]float64, f *blockInv, held *[maxPoints]bool, lam *[maxPoints]float64) blockOutcome {
	if int(f.n) != n {
		return blockFailed
	}
	proj := n == maxPoints && null != nil
	d := 0.0
	if proj {
		l2 := 0.0
		for i := range rhs {
			d += mul(rhs[i], null[i])
			l2 += mul(rhs[i], rhs[i])
		}
		if !(mul(d, d) <= mul(1e-12, l2)) {
			return blockFailed // project fails too: the rows ask for what no rigid motion gives
		}
	}
	f.apply(rhs, lam)
	if nonNegative(n, pn, lam) {
		return blockSolved
	}
	*held = allHeld(n)
	x := *lam
	if proj {
		b := *rhs
		for i := range b {
			b[i] -= mul(d, null[i])
		}
		f.apply(&b, &x)
		project(&x, null) // the solution's component: rounding only
	}
	idx := [maxPoints]int{0, 1, 2, 3}
	if takeRound(n, n, &idx, &x, pn, held, lam) {
		return blockSolved // every point held: letGoHolds has nothing to check
	}
	return blockMore
}

// enumBlock is blockSolve by enumeration, for the shock pass's rows
// (shock.go) where letting go the points whose impulse turns negative,
// one round after the other, ends in a set that does not hold (a point
// let go would close in), or where all four rigid rows ask for what no
// rigid motion gives: it tries every set of held points, the larger
// first, and takes the first whose impulses stay non-negative and whose
// points let go do not close in (the solution of the rows'
// complementarity problem, unique up to rounding where the matrix is
// positive definite). It returns false if no set does. Before it, those
// rows were solved one point after the other, the first taking more than
// its share: a cube dropped flat on a column, 1 cm off centre along x,
// turned the column's cubes about x (impact_test.go). The normal passes
// (block) keep their Gauss-Seidel fallback: enumerating there too made
// the cubes scene's deepest overlap 9.6 cm instead of 5.5 over 2048 steps.
func enumBlock(n int, diag, rhs, pn *[maxPoints]float64, k *[6]float64, null *[maxPoints]float64, lam *[maxPoints]float64) bool {
	n = min(n, maxPoints)
	kf := kFull(k)
	for set := 1<<n - 1; set >= 0; set-- {
		var held [maxPoints]bool
		var idx [maxPoints]int
		m := 0
		for i := 0; i < n; i++ {
			if set>>i&1 != 0 {
				held[i], idx[m] = true, i
				m++
			}
		}
		var x [maxPoints]float64
		b := heldRHS(n, m, &idx, rhs, pn, &kf, &held)
		proj := m == maxPoints && null != nil
		if proj && !project(&b, null) {
			continue
		}
		if m > 0 {
			var a [maxPoints][maxPoints]float64
			for p := 0; p < m; p++ {
				i := idx[p]
				a[p][p] = diag[i]
				for q := 0; q < p; q++ {
					a[p][q] = kf[i][idx[q]]
				}
			}
			var f ldlFactor
			if !f.factor(m, &a) {
				continue
			}
			f.solve(m, &b, &x)
			if proj {
				project(&x, null)
			}
		}
		if takeRound(n, m, &idx, &x, pn, &held, lam) && letGoHolds(n, diag, rhs, &kf, lam, &held) {
			return true
		}
	}
	return false
}

// blockOutcome is what firstBlock leaves to do.
type blockOutcome uint8

const (
	blockSolved blockOutcome = iota // lam holds the impulses
	blockFailed                     // the block solve failed: fall back to Gauss-Seidel
	blockMore                       // some points were let go: blockRounds from round 1 on
)

// blockDiag returns the diagonal of the block matrix of c's points pts,
// K_ii + G_i, with the rows that the mask soft marks made soft (see block).
func blockDiag(c *constraint, pts []cpoint, soft uint8) (diag [maxPoints]float64) {
	for i := range pts {
		p := &pts[i]
		if soft&(1<<i) != 0 {
			diag[i] = p.kn + mul(p.kn, c.soft.gam)
		} else {
			diag[i] = p.kn + mul(p.kn, blockEps)
		}
	}
	return diag
}

// nonNegative reports whether every accumulated impulse pn stays
// non-negative with the impulses lam added.
func nonNegative(n int, pn, lam *[maxPoints]float64) bool {
	n = min(n, maxPoints)
	for i := 0; i < n; i++ {
		if pn[i]+lam[i] < 0 {
			return false
		}
	}
	return true
}

// letGoHolds reports whether every point let go (held false) would not
// close in with impulses lam: its row's residual (K + G) λ - rhs, the
// velocity it is left with beyond its target, is not negative. Otherwise
// the set of points held is wrong and the caller falls back.
func letGoHolds(n int, diag, rhs *[maxPoints]float64, kf *[maxPoints][maxPoints]float64, lam *[maxPoints]float64, held *[maxPoints]bool) bool {
	n = min(n, maxPoints)
	for i := 0; i < n; i++ {
		if held[i] {
			continue
		}
		r := mul(diag[i], lam[i]) - rhs[i]
		for j := 0; j < n; j++ {
			if j != i {
				r += mul(kf[i][j], lam[j])
			}
		}
		if r < 0 {
			return false
		}
	}
	return true
}

// ldlFactor is the LDLᵀ factor (no square roots) of a symmetric matrix
// of at most four rows: unit lower triangle l and diagonal d.
type ldlFactor struct {
	l [maxPoints][maxPoints]float64
	d [maxPoints]float64
}

// factor factors the symmetric m x m matrix whose lower triangle a holds;
// false if a pivot is not positive.
func (f *ldlFactor) factor(m int, a *[maxPoints][maxPoints]float64) bool {
	m = min(m, maxPoints) // no more: the compiler drops the bounds checks
	for j := 0; j < m; j++ {
		s := a[j][j]
		for k := 0; k < j; k++ {
			s -= mul(mul(f.l[j][k], f.l[j][k]), f.d[k])
		}
		if !(s > mul(1e-12, a[j][j])) {
			return false
		}
		f.d[j] = s
		for i := j + 1; i < m; i++ {
			t := a[i][j]
			for k := 0; k < j; k++ {
				t -= mul(mul(f.l[i][k], f.l[j][k]), f.d[k])
			}
			f.l[i][j] = t / s
		}
	}
	return true
}

// solve solves the factored m x m system for b into x.
func (f *ldlFactor) solve(m int, b, x *[maxPoints]float64) {
	m = min(m, maxPoints)
	var y [maxPoints]float64
	for i := 0; i < m; i++ {
		t := b[i]
		for k := 0; k < i; k++ {
			t -= mul(f.l[i][k], y[k])
		}
		y[i] = t
	}
	for i := m - 1; i >= 0; i-- {
		t := y[i] / f.d[i]
		for k := i + 1; k < m; k++ {
			t -= mul(f.l[k][i], x[k])
		}
		x[i] = t
	}
}

// solveUnit is solve for b the j-th unit vector, without the operations
// whose results are known: in the forward pass the rows above j stay +0
// (+0 minus a product with +0 is +0, the factor's entries being finite
// once factor succeeded) and add nothing to the rows below, row j is 1;
// in the backward pass those rows start from +0 / d = +0 (d > 0). The
// same bits as solve.
func (f *ldlFactor) solveUnit(m, j int, x *[maxPoints]float64) {
	m = min(m, maxPoints)
	var y [maxPoints]float64
	y[j] = 1
	for i := j + 1; i < m; i++ {
		t := 0.0
		for k := j; k < i; k++ {
			t -= mul(f.l[i][k], y[k])
		}
		y[i] = t
	}
	for i := m - 1; i >= 0; i-- {
		t := 0.0
		if i >= j || !(f.d[i] > 0) {
			t = y[i] / f.d[i]
		}
		for k := i + 1; k < m; k++ {
			t -= mul(f.l[k][i], x[k])
		}
		x[i] = t
	}
}

// block solves the normal rows of c's points pts together in a pass with
// constants k, from their normal velocities vn: it adds the impulses to
// the points' accumulated ones and returns them in lam; false (nothing
// changed) if the block solve failed and the pass must fall back to
// Gauss-Seidel.
func (k *solveConst) block(c *constraint, pts []cpoint, vn, lam *[maxPoints]float64) bool {
	pts = pts[:min(len(pts), maxPoints)] // no more: the compiler drops the bounds checks
	var rhs, pn [maxPoints]float64
	rigid := true
	soft := uint8(0)
	for i := range pts {
		p := &pts[i]
		pn[i] = p.pn
		switch s := p.s; {
		case s > 0:
			rhs[i] = -(vn[i] + mul(s, k.invH))
		case k.useBias:
			bias := 0.0
			if t := s + k.slop; t < 0 {
				bias = max(mul(c.soft.biasRate, t), k.maxPush)
			}
			g := mul(p.kn, c.soft.gam)
			rigid, soft = false, soft|1<<i
			rhs[i] = -(vn[i] + bias) - mul(g, p.pn)
		default:
			rhs[i] = -vn[i]
		}
	}
	var null *[maxPoints]float64
	if rigid && c.count == maxPoints && c.hasNull {
		null = &c.null
	}
	// The matrix of every point changes only with which rows are soft: its
	// inverse is made once a step for the rigid rows and again for the soft
	// ones only when that changes. The diagonal (blockDiag) is needed only
	// then, or when some point is let go.
	f := &c.invS
	if rigid {
		f = &c.invR
		if !c.hasR {
			diag := blockDiag(c, pts, soft)
			f.make(len(pts), &diag, &c.koff, null)
			c.hasR = true
		}
	} else if !c.hasS || f.soft != soft {
		diag := blockDiag(c, pts, soft)
		f.make(len(pts), &diag, &c.koff, nil)
		c.hasS, f.soft = true, soft
	}
	var held [maxPoints]bool
	switch firstBlock(len(pts), &rhs, &pn, null, f, &held, lam) {
	case blockFailed:
		return false
	case blockMore:
		diag := blockDiag(c, pts, soft)
		if !blockRounds(1, len(pts), &diag, &rhs, &pn, &c.koff, null, f, &held, lam) {
			return false
		}
	}
	if c.e == 0 { // vimp and maxPn serve restitution only, which leaves c alone
		for i := range pts {
			p := &pts[i]
			p.pn = max(p.pn+lam[i], 0)
		}
		return true
	}
	for i := range pts {
		p := &pts[i]
		p.vimp = min(p.vimp, vn[i])
		p.pn = max(p.pn+lam[i], 0)
		p.maxPn = max(p.maxPn, p.pn)
	}
	return true
}

// project removes from v its component along the unit vector u, and
// reports whether that component was no more than rounding (1e-6 of |v|):
// when more, the rows ask for what no rigid motion gives (rows closing a
// gap next to rows that only stop), and the caller falls back.
func project(v, u *[maxPoints]float64) bool {
	d, l2 := 0.0, 0.0
	for i := range v {
		d += mul(v[i], u[i])
		l2 += mul(v[i], v[i])
	}
	for i := range v {
		v[i] -= mul(d, u[i])
	}
	return mul(d, d) <= mul(1e-12, l2)
}

// nullVector returns the unit vector z with Σ z_i = 0 and Σ z_i o_i = 0 for
// the four offsets o of a contact's points in its tangent plane (t1, t2):
// impulses z at the points push and turn nothing. ok is false when the
// points are too close to a line for one direction to be the null space.
func nullVector(info []pointInfo, t1, t2 Vec3) (z [maxPoints]float64, ok bool) {
	var x, y [maxPoints]float64
	for i := range info {
		x[i], y[i] = info[i].off.Dot(t1), info[i].off.Dot(t2)
	}
	// z_i = (-1)^i det of the 3x3 matrix of rows 1, x, y without column i.
	det3 := func(a, b, c int) float64 {
		return mul(x[b], y[c]) - mul(x[c], y[b]) - (mul(x[a], y[c]) - mul(x[c], y[a])) + (mul(x[a], y[b]) - mul(x[b], y[a]))
	}
	z = [maxPoints]float64{det3(1, 2, 3), -det3(0, 2, 3), det3(0, 1, 3), -det3(0, 1, 2)}
	l2 := mul(z[0], z[0]) + mul(z[1], z[1]) + mul(z[2], z[2]) + mul(z[3], z[3])
	scale := 0.0 // the offsets' spread, for a relative test
	for i := range info {
		scale += info[i].off.Dot(info[i].off)
	}
	if !(l2 > mul(1e-12, mul(scale, scale))) {
		return z, false
	}
	inv := 1 / sqrt(l2)
	for i := range z {
		z[i] = mul(z[i], inv)
	}
	return z, true
}
