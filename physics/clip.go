package physics

// clipVert is a vertex of the incident polygon while it is clipped: its
// position, its feature (see manifold.go) and the id of the polygon edge
// that leaves it (an edge of the box, 0-11, or 12 + p for a piece lying on
// side plane p).
type clipVert struct {
	p       Vec3
	feature uint32
	edge    uint32
}

// faceContact makes the contact of reference box R's face along axis k
// (on the side of the incident box I: dr is the offset from R to I along
// that axis) against the face of I that faces it most: I's face polygon is
// clipped by the four side planes of the reference face, and the points
// below spec are kept, at most four. It returns the face normal, from R
// towards I, and the number of points in out, sorted by feature.
func faceContact(R, I *box, k int, dr float64, spec float64, out *[4]cpt) (Vec3, int) {
	n := R.u[k]
	face := uint32(2 * k)
	if dr < 0 {
		n, face = n.Neg(), face+1
	}
	centre := R.p.AddScaled(n, R.h[k])

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
	var poly, tmp [8]clipVert
	signs := [4][2]int{{1, 1}, {0, 1}, {0, 0}, {1, 0}}
	for q, s := range signs {
		v := vm | s[0]<<m1 | s[1]<<m2
		p := fc.AddScaled(I.u[m1], sgn(s[0], I.h[m1])).AddScaled(I.u[m2], sgn(s[1], I.h[m2]))
		poly[q] = clipVert{p: p, feature: uint32(v)}
	}
	for q := 0; q < 4; q++ {
		a, b := int(poly[q].feature), int(poly[(q+1)%4].feature)
		axis := m1
		if (a^b)&(1<<m2) != 0 {
			axis = m2
		}
		poly[q].edge = edgeID(axis, a)
	}

	// Clip by the side planes: ±u1 and ±u2 of the reference face.
	k1, k2 := next3[k], next3[k+1]
	cnt := 4
	planes := [4]struct {
		u Vec3
		h float64
	}{{R.u[k1], R.h[k1]}, {R.u[k1].Neg(), R.h[k1]}, {R.u[k2], R.h[k2]}, {R.u[k2].Neg(), R.h[k2]}}
	for pl := range planes {
		u, off := planes[pl].u, planes[pl].u.Dot(centre)+planes[pl].h
		cnt = clipPlane(&poly, cnt, &tmp, u, off, uint32(pl))
		poly = tmp
		if cnt == 0 {
			return n, 0
		}
	}

	// Keep the points below spec, midway between the incident point and
	// the reference face.
	var pts [8]cpt
	np := 0
	for q := 0; q < cnt; q++ {
		s := n.Dot(poly[q].p.Sub(centre))
		if s > spec {
			continue
		}
		pts[np] = cpt{p: poly[q].p.AddScaled(n, -mul(s, 0.5)), sep: s, feature: face<<featFaceBits | poly[q].feature}
		np++
	}
	return n, reduce(&pts, np, n, out)
}

// sgn returns h if bit is 1, -h if 0.
func sgn(bit int, h float64) float64 {
	if bit == 1 {
		return h
	}
	return -h
}

// clipPlane clips the polygon in[:cnt] to the half-space u·x <= off
// (Sutherland-Hodgman) into out and returns the new vertex count. A vertex
// made where polygon edge e crosses the plane gets the feature
// featClipped + 4*e + pl; the piece of the boundary that then runs along
// the plane is edge 12 + pl.
func clipPlane(in *[8]clipVert, cnt int, out *[8]clipVert, u Vec3, off float64, pl uint32) int {
	n := 0
	for q := 0; q < cnt; q++ {
		a, b := &in[q], &in[(q+1)%cnt]
		da, db := u.Dot(a.p)-off, u.Dot(b.p)-off
		if da <= 0 {
			if n < 8 {
				out[n] = *a
				n++
			}
			if db > 0 && n < 8 { // leaving
				out[n] = clipVert{p: cross(a.p, b.p, da, db), feature: featClipped + 4*a.edge + pl, edge: 12 + pl}
				n++
			}
		} else if db <= 0 && n < 8 { // entering
			out[n] = clipVert{p: cross(a.p, b.p, da, db), feature: featClipped + 4*a.edge + pl, edge: a.edge}
			n++
		}
	}
	return n
}

// cross returns the point where the segment a-b crosses the plane, given
// the signed distances da and db of its ends (of opposite signs).
func cross(a, b Vec3, da, db float64) Vec3 {
	t := da / (da - db)
	return a.AddScaled(b.Sub(a), t)
}

// reduce picks at most four of the points pts[:np] (the deepest, the one
// furthest from it, then the two that span the largest triangles with those
// on either side) and writes them to out sorted by feature. Every choice
// breaks ties towards the earlier point, so it is the same on every path.
func reduce(pts *[8]cpt, np int, n Vec3, out *[4]cpt) int {
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
