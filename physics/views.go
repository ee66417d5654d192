package physics

// Read-only views of a world for drawing and inspection: the contacts with
// their impulses, the broad phase's bounds and pairs, the islands and the
// solver's colours. They are computed when asked, from the state and from
// what the last step left in its scratch, into the caller's slices; the
// step never computes or stores anything for them, so a world nobody
// draws pays nothing. None of them changes the world. What comes from the
// last step (the pairs, the contacts' colours, the swept bounds) describes
// the state only while Stepped is true: after a Restore or a Load, Pairs
// gives none, every contact is ColourNone and Bounds gives the bounds at
// rest of the restored poses, until the next Step.

// Stepped reports whether the world's state is the one its last Step left:
// false for a new world and after Restore or Load, until the next Step.
func (w *World) Stepped() bool { return w.stepped }

// Contact colours besides the solver's colours 0 to Colours()-1.
const (
	// ColourOverflow marks a contact the last step solved in the overflow,
	// serially, before the colours.
	ColourOverflow = -1
	// ColourNone marks a contact the last step did not solve: one between
	// bodies that did not move in it (asleep, or outside a partial step),
	// kept in the cache.
	ColourNone = -2
)

// Colours returns the number of colours the solver may use.
func Colours() int { return colourCount }

// ContactView is one cached contact as a view shows it.
type ContactView struct {
	A, B    int32 // bodies, A < B; B is Ground for the ground plane
	Feature uint32
	// Point is the contact point in the bodies' current poses, midway
	// between the two surfaces, as the narrow phase finds the contact's
	// feature; Found is false when it no longer finds it there (the bodies
	// moved apart since the step), and Point is then the mean of the
	// points it finds for the pair, or the midpoint of the bodies' centres.
	Point Vec3
	Found bool
	// Normal is the contact normal from B towards A (World.ContactNormal).
	Normal Vec3
	// Pn is the normal impulse of one substep, N·s, pushing A along
	// Normal. Friction is the friction impulse on A of one substep, N·s,
	// in the plane of the normal.
	Pn       float64
	Friction Vec3
	// Colour is the colour the last step's solver gave the contact
	// (0 to Colours()-1, ColourOverflow, or ColourNone).
	Colour int
}

// ContactViews appends to dst a view of every contact of the cache (the
// state's Contacts, in key order) and returns it. It runs the narrow phase
// once for each pair of boxes in the cache; the step is not involved.
func (w *World) ContactViews(dst []ContactView) []ContactView {
	cs := w.st.Contacts
	cons := w.ctx.cons
	ci, pi := 0, 0 // walk through the last step's constraints and their points, in key order
	var out manifolds
	for k := 0; k < len(cs); {
		a, b := cs[k].A, cs[k].B
		end := k + 1
		for end < len(cs) && cs[end].A == a && cs[end].B == b {
			end++
		}
		haveBox := false
		if b != Ground {
			A, B := viewBox(w, a), viewBox(w, b)
			boxBox(&A, &B, w.cfg.Margin+0.1, 0, &out)
			haveBox = true
		}
		for ; k < end; k++ {
			c := &cs[k]
			v := ContactView{A: a, B: b, Feature: c.Feature, Normal: w.ContactNormal(c), Pn: c.Pn, Colour: ColourNone}
			t1, t2 := tangents(v.Normal)
			v.Friction = t1.Scale(c.Pt1).Add(t2.Scale(c.Pt2))
			if haveBox {
				v.Point, v.Found = pairPoint(w, &out, a, b, c.Feature)
			} else {
				v.Point, v.Found = groundPoint(w, a, c.Feature), true
			}
			// The colour of the last step's contact with the same key.
			key := c.key()
			for w.stepped && ci < len(cons) {
				cc := &cons[ci]
				if pi >= int(cc.count) {
					ci, pi = ci+1, 0
					continue
				}
				ck := contactKey(cc.a, cc.b, w.ctx.info[cc.first+int32(pi)].feature)
				if ck > key {
					break
				}
				if ck == key && ci < len(w.ctx.graph.of) {
					v.Colour = int(w.ctx.graph.of[ci])
					if v.Colour == colourCount {
						v.Colour = ColourOverflow
					}
				}
				pi++
			}
			dst = append(dst, v)
		}
	}
	return dst
}

// viewBox returns body i as the narrow phase sees it, from its current
// pose (the world's rotation matrices of active bodies are those of the
// start of the last step).
func viewBox(w *World, i int32) box {
	r := rotationMat(w.st.Bodies[i].Rot)
	h := w.shapes[i].half
	return box{p: w.st.Bodies[i].Pos, u: [3]Vec3{r.Col(0), r.Col(1), r.Col(2)}, h: [3]float64{h.X, h.Y, h.Z}}
}

// pairPoint returns the point of feature f among the manifolds out found
// for boxes a and b, and whether it is there (see ContactView.Point).
func pairPoint(w *World, out *manifolds, a, b int32, f uint32) (Vec3, bool) {
	var sum Vec3
	n := 0
	for m := 0; m < out.m; m++ {
		for _, p := range out.pts[m][:out.k[m]] {
			if p.feature == f {
				return p.p, true
			}
			sum = sum.Add(p.p)
			n++
		}
	}
	if n > 0 {
		return sum.Scale(1 / float64(n)), false
	}
	return w.st.Bodies[a].Pos.Add(w.st.Bodies[b].Pos).Scale(0.5), false
}

// groundPoint returns the point of body i's contact with the ground at
// vertex v: the vertex, halfway down to the plane, as the step makes it.
func groundPoint(w *World, i int32, v uint32) Vec3 {
	r := rotationMat(w.st.Bodies[i].Rot)
	p := w.st.Bodies[i].Pos.Add(r.MulVec(corner(w.shapes[i].half, int(v&7))))
	return Vec3{p.X, mul(0.5, p.Y), p.Z}
}

// Bounds returns body i's bounds as the broad phase last saw them: grown
// by half the margin, and for a body the last step moved by how far it
// could move in it, at its pose at the start of that step. Before a step
// (Stepped false) they are the bounds at rest of its pose: grown by half
// the margin.
func (w *World) Bounds(i int) (lo, hi Vec3) {
	b := w.bounds[i]
	if !w.stepped {
		r := rotationMat(w.st.Bodies[i].Rot)
		b = boundsOf(w.shapes[i].half, &r, w.st.Bodies[i].Pos, mul(0.5, w.cfg.Margin))
	}
	return b.lo, b.hi
}

// Pairs appends to dst the pairs of bodies (A < B) the last step's broad
// phase found, in order, and returns it: after a partial step (Follow),
// those of the bodies it followed; none before a step (Stepped false).
func (w *World) Pairs(dst [][2]int32) [][2]int32 {
	if !w.stepped {
		return dst
	}
	for _, p := range w.ctx.pairs.list {
		dst = append(dst, [2]int32{int32(p >> 32), int32(uint32(p))})
	}
	return dst
}

// Islands sets island[i], for every body i, to its island as the contact
// cache links them: the smallest index of the dynamic, enabled bodies
// linked to i through contacts between such bodies (a body alone is its
// own island), or -1 for static and disabled bodies. It returns the slice
// (island reused when it has room) and the number of islands.
func (w *World) Islands(island []int32) ([]int32, int) {
	n := len(w.shapes)
	if cap(island) < n {
		island = make([]int32, n)
	}
	island = island[:n]
	for i := range island {
		island[i] = int32(i)
	}
	dyn := func(i int32) bool { return i >= 0 && !w.shapes[i].static && !w.st.Bodies[i].Disabled }
	for k := range w.st.Contacts {
		if c := &w.st.Contacts[k]; dyn(c.A) && dyn(c.B) {
			union(island, c.A, c.B)
		}
	}
	count := 0
	for i := range island {
		if !dyn(int32(i)) {
			island[i] = -1
			continue
		}
		island[i] = find(island, int32(i))
		if island[i] == int32(i) {
			count++
		}
	}
	return island, count
}
