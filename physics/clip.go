package physics

// clipVert is a vertex of the incident polygon while it is clipped, in the
// reference face's frame: x and y along the face's two axes, z the
// separation along its normal; its feature (see manifold.go) and the id of
// the polygon edge that leaves it (an edge of the box, 0-11, or 12 + p for
// a piece lying on side plane p).
type clipVert struct {
	x, y, z float64
	feature uint32
	edge    uint32
}

// faceContact makes the contact of reference box R's face along axis k
// (on the side of the incident box I: dr is the offset from R to I along
// that axis) against the face of I that faces it most: I's face polygon is
// clipped by the four side planes of the reference face, moved out by ext,
// and the points below spec are kept, at most four. A point beyond the
// face's true border is kept only if it is above the face's plane: it is a
// speculative contact for a part of I that may come over the face during
// the step (ext is how far the boxes may move relative to each other), not
// a part that hangs beside R. It returns the face normal, from R towards
// I, and the number of points in out, sorted by feature.
//
// The clipping is done in the reference face's frame (x along R's axis k1,
// y along k2, z the separation along the normal), where the side planes
// are x = ±h1 and y = ±h2: a vertex is tested by one coordinate.
func faceContact(R, I *box, k int, dr float64, spec, ext float64, out *[4]cpt) (Vec3, int) {
	n := R.u[k]
	face := uint32(2 * k)
	if dr < 0 {
		n, face = n.Neg(), face+1
	}
	centre := R.p.AddScaled(n, R.h[k])
	k1, k2 := next3[k], next3[k+1]
	u1, u2 := R.u[k1], R.u[k2]
	h1, h2 := R.h[k1], R.h[k2]

	// Incident face: I's axis most parallel to n, on the side facing R.
	m, best := 0, -1.0
	for a := 0; a < 3; a++ {
		if x := abs(n.Dot(I.u[a])); x > best {
			m, best = a, x
		}
	}
	m1, m2 := next3[m], next3[m+1]
	// Vertex bits: the face's side along m, then the four corners in order
	// around the face.
	vm := 0
	fc := I.p
	if n.Dot(I.u[m]) < 0 {
		vm = 1 << m // the face on I's positive side faces R
		fc = fc.AddScaled(I.u[m], I.h[m])
	} else {
		fc = fc.AddScaled(I.u[m], -I.h[m])
	}
	// The incident face's centre and half edges in the reference frame.
	rel := fc.Sub(centre)
	cx, cy, cz := u1.Dot(rel), u2.Dot(rel), n.Dot(rel)
	e1, e2 := I.u[m1].Scale(I.h[m1]), I.u[m2].Scale(I.h[m2])
	ax, ay, az := u1.Dot(e1), u2.Dot(e1), n.Dot(e1)
	bx, by, bz := u1.Dot(e2), u2.Dot(e2), n.Dot(e2)
	var bufA, bufB [8]clipVert
	poly := &bufA
	signs := [4][2]int{{1, 1}, {0, 1}, {0, 0}, {1, 0}}
	for q, sg := range signs {
		sa, sb := float64(2*sg[0]-1), float64(2*sg[1]-1)
		poly[q] = clipVert{
			x:       cx + mul(sa, ax) + mul(sb, bx),
			y:       cy + mul(sa, ay) + mul(sb, by),
			z:       cz + mul(sa, az) + mul(sb, bz),
			feature: uint32(vm | sg[0]<<m1 | sg[1]<<m2),
		}
	}
	for q := 0; q < 4; q++ {
		a, b := int(poly[q].feature), int(poly[(q+1)&3].feature)
		axis := m1
		if (a^b)&(1<<m2) != 0 {
			axis = m2
		}
		poly[q].edge = edgeID(axis, a)
	}

	// Clip by the side planes x <= h1, -x <= h1, y <= h2, -y <= h2 and
	// keep the points below spec, midway between the incident point and
	// the reference face.
	var pts [16]cpt
	quad := *poly
	// A vertex beyond a side plane by no more than clipTol counts as on
	// it (see clipTol).
	h1, h2 = h1+clipTol, h2+clipTol
	inside := true
	for q := 0; q < 4; q++ {
		inside = inside && abs(quad[q].x) <= h1 && abs(quad[q].y) <= h2
	}
	np := clipKeep(poly, &bufB, h1, h2, h1, h2, 0, spec, &pts, 0)
	if ext > extMin && !inside {
		// Then with the planes moved out by ext: the points beyond the
		// face's border that are above its plane.
		bufA = quad
		np = clipKeep(&bufA, &bufB, h1+ext, h2+ext, h1, h2, featExt, spec, &pts, np)
	}
	for q := 0; q < np; q++ {
		v := &pts[q]
		v.p = centre.AddScaled(u1, v.p.X).AddScaled(u2, v.p.Y).AddScaled(n, mul(v.sep, 0.5))
		v.feature |= face << featFaceBits
	}
	return n, reduce(&pts, np, n, out)
}

// clipKeep clips the polygon poly[:4] (in the reference face's frame) by
// the side planes x = ±e1, y = ±e2, using tmp, and appends to pts[np:] the
// vertices whose separation is at most spec, with the face frame's
// coordinates in p and their features ored with bit. When the planes are
// moved out (e1 > h1 or e2 > h2, the face's half sizes) it keeps only the
// vertices beyond the face's border (|x| > h1 or |y| > h2) and above its
// plane.
func clipKeep(poly, tmp *[8]clipVert, e1, e2, h1, h2 float64, bit uint32, spec float64, pts *[16]cpt, np int) int {
	out := e1 > h1 || e2 > h2
	cnt := 4
	inside := true
	for q := 0; q < 4; q++ {
		inside = inside && abs(poly[q].x) <= e1 && abs(poly[q].y) <= e2
	}
	for pl := uint32(0); pl < 4 && !inside; pl++ {
		cnt = clipSide(poly, cnt, tmp, pl, e1, e2)
		poly, tmp = tmp, poly
		if cnt == 0 {
			return np
		}
	}
	for q := 0; q < cnt; q++ {
		v := &poly[q]
		if v.z > spec || (out && (v.z < 0 || (abs(v.x) <= h1 && abs(v.y) <= h2))) {
			continue
		}
		pts[np] = cpt{p: Vec3{v.x, v.y, 0}, sep: v.z, feature: v.feature | bit}
		np++
	}
	return np
}

// side returns the signed distance of v beyond side plane pl: x - h1,
// -x - h1, y - h2 or -y - h2.
func side(v *clipVert, pl uint32, h1, h2 float64) float64 {
	switch pl {
	case 0:
		return v.x - h1
	case 1:
		return -v.x - h1
	case 2:
		return v.y - h2
	}
	return -v.y - h2
}

// clipSide clips the polygon in[:cnt] to the inside of side plane pl
// (Sutherland-Hodgman) into out and returns the new vertex count. A vertex
// made where polygon edge e crosses the plane gets the feature
// featClipped + 4*e + pl; the piece of the boundary that then runs along
// the plane is edge 12 + pl.
func clipSide(in *[8]clipVert, cnt int, out *[8]clipVert, pl uint32, h1, h2 float64) int {
	n := 0
	a := &in[cnt-1]
	da := side(a, pl, h1, h2)
	for q := 0; q < cnt; q++ {
		b := &in[q]
		db := side(b, pl, h1, h2)
		// The edge from a to b.
		if da <= 0 {
			if db > 0 && n < 8 { // leaving
				out[n] = crossing(a, b, da, db)
				out[n].feature, out[n].edge = featClipped+4*a.edge+pl, 12+pl
				n++
			}
		} else if db <= 0 && n < 8 { // entering
			out[n] = crossing(a, b, da, db)
			out[n].feature, out[n].edge = featClipped+4*a.edge+pl, a.edge
			n++
		}
		if db <= 0 && n < 8 {
			out[n] = *b
			n++
		}
		a, da = b, db
	}
	return n
}

// crossing returns the point where the segment a-b crosses a plane, given
// the signed distances da and db of its ends (of opposite signs).
func crossing(a, b *clipVert, da, db float64) clipVert {
	t := da / (da - db)
	return clipVert{x: a.x + mul(b.x-a.x, t), y: a.y + mul(b.y-a.y, t), z: a.z + mul(b.z-a.z, t)}
}

// reduce picks at most four of the points pts[:np] (the deepest, the one
// furthest from it, then the two that span the largest triangles with those
// on either side) and writes them to out sorted by feature. Every choice
// breaks ties towards the earlier point, so it is the same on every path.
func reduce(pts *[16]cpt, np int, n Vec3, out *[4]cpt) int {
	if np <= 4 {
		for q := 0; q < np; q++ {
			out[q] = pts[q]
		}
		sortPoints(out, np)
		return np
	}
	i1 := 0
	for q := 1; q < np; q++ {
		if pts[q].sep < pts[i1].sep {
			i1 = q
		}
	}
	i2, far := -1, -1.0
	for q := 0; q < np; q++ {
		if d := pts[q].p.Sub(pts[i1].p); q != i1 && d.Dot(d) > far {
			i2, far = q, d.Dot(d)
		}
	}
	e := pts[i2].p.Sub(pts[i1].p)
	i3, i4, hi, lo := -1, -1, 0.0, 0.0
	for q := 0; q < np; q++ {
		if q == i1 || q == i2 {
			continue
		}
		a := pts[q].p.Sub(pts[i1].p).Cross(e).Dot(n)
		if a > hi {
			i3, hi = q, a
		}
		if a < lo {
			i4, lo = q, a
		}
	}
	k := 0
	for _, q := range [4]int{i1, i2, i3, i4} {
		if q >= 0 {
			out[k] = pts[q]
			k++
		}
	}
	sortPoints(out, k)
	return k
}

// sortPoints sorts out[:k] by feature (insertion sort: at most four).
func sortPoints(out *[4]cpt, k int) {
	for q := 1; q < k; q++ {
		for r := q; r > 0 && out[r].feature < out[r-1].feature; r-- {
			out[r], out[r-1] = out[r-1], out[r]
		}
	}
}
