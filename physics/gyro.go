package physics

// Gyroscopic torque. Without it ω stays fixed in world space while the
// body turns, so a box spun near its intermediate axis never flips and the
// angular momentum L = R I Rᵀ ω of a free body swings about. Euler's
// equation in the body's frame, I dω/dt + ω × Iω = 0, is stiff for thin
// bodies, so it is integrated implicitly, as Bepu, Jolt and Erin Catto's
// GDC 2015 talk "Numerical Methods" do: one Newton step on
//
//	f(ω) = I (ω - ω₀) + dt ω × Iω = 0
//
// from ω₀, whose Jacobian is J = I + dt (skew(ω₀) I - skew(Iω₀)), so
// ω = ω₀ - J⁻¹ dt (ω₀ × Iω₀). It uses products and one division only, each
// product rounded (mul), and runs once a step per active body, in
// activate: a body at rest (ω = 0) is left exactly as it was.

// gyroscopic returns the angular velocity w (world frame) of a body with
// rotation r and body-frame inverse inertia invI after one implicit step
// of dt of the gyroscopic term.
func gyroscopic(w Vec3, r *Mat3, invI Vec3, dt float64) Vec3 {
	if w == (Vec3{}) {
		return w
	}
	wb := r.MulTVec(w) // body frame
	I := Vec3{1 / invI.X, 1 / invI.Y, 1 / invI.Z}
	iw := Vec3{mul(I.X, wb.X), mul(I.Y, wb.Y), mul(I.Z, wb.Z)}
	f := wb.Cross(iw).Scale(dt)
	// J = I + dt (skew(ω) I - skew(Iω)); skew(a) b = a × b, so column k
	// of skew(ω) I is ω × (I_k e_k) and of skew(Iω) is Iω × e_k. Written
	// out for each column, where a function would not be inlined.
	ex, ey, ez := Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}
	c0 := ex.Scale(I.X).Add(wb.Cross(ex.Scale(I.X)).Sub(iw.Cross(ex)).Scale(dt))
	c1 := ey.Scale(I.Y).Add(wb.Cross(ey.Scale(I.Y)).Sub(iw.Cross(ey)).Scale(dt))
	c2 := ez.Scale(I.Z).Add(wb.Cross(ez.Scale(I.Z)).Sub(iw.Cross(ez)).Scale(dt))
	dw, ok := solve3(c0, c1, c2, f)
	if !ok {
		return w
	}
	return r.MulVec(wb.Sub(dw))
}

// solve3 solves the system whose matrix has columns c0, c1, c2 for the
// right-hand side b by Cramer's rule; ok is false when it is singular.
func solve3(c0, c1, c2, b Vec3) (x Vec3, ok bool) {
	c12 := c1.Cross(c2)
	det := c0.Dot(c12)
	if det == 0 || !finite(det) {
		return Vec3{}, false
	}
	inv := 1 / det
	return Vec3{b.Dot(c12), c0.Dot(b.Cross(c2)), c0.Dot(c1.Cross(b))}.Scale(inv), true
}
