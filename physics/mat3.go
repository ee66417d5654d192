package physics

// Mat3 is a 3x3 matrix stored by rows.
type Mat3 [3]Vec3

// MulVec returns m*v.
func (m *Mat3) MulVec(v Vec3) Vec3 { return Vec3{m[0].Dot(v), m[1].Dot(v), m[2].Dot(v)} }

// rotationMat returns the rotation matrix of the unit quaternion q.
func rotationMat(q Quat) Mat3 {
	xx, yy, zz := mul(q.X, q.X), mul(q.Y, q.Y), mul(q.Z, q.Z)
	xy, xz, yz := mul(q.X, q.Y), mul(q.X, q.Z), mul(q.Y, q.Z)
	wx, wy, wz := mul(q.W, q.X), mul(q.W, q.Y), mul(q.W, q.Z)
	return Mat3{
		{1 - mul(2, yy+zz), mul(2, xy-wz), mul(2, xz+wy)},
		{mul(2, xy+wz), 1 - mul(2, xx+zz), mul(2, yz-wx)},
		{mul(2, xz-wy), mul(2, yz+wx), 1 - mul(2, xx+yy)},
	}
}

// sandwich returns R * diag(d) * Rᵀ, the world-space form of a body-space
// diagonal tensor d.
func sandwich(r *Mat3, d Vec3) Mat3 {
	var m Mat3
	for i := 0; i < 3; i++ {
		ri := Vec3{mul(r[i].X, d.X), mul(r[i].Y, d.Y), mul(r[i].Z, d.Z)}
		m[i] = Vec3{ri.Dot(r[0]), ri.Dot(r[1]), ri.Dot(r[2])}
	}
	return m
}

// MulTVec returns mᵀ*v.
func (m *Mat3) MulTVec(v Vec3) Vec3 {
	return m[0].Scale(v.X).Add(m[1].Scale(v.Y)).Add(m[2].Scale(v.Z))
}

// Col returns column i of m.
func (m *Mat3) Col(i int) Vec3 { return Vec3{m[0].Comp(i), m[1].Comp(i), m[2].Comp(i)} }
