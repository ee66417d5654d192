package physics

import "testing"

// runPile steps the pile with its drive to tick n, calling check after
// every step.
func runPile(t *testing.T, w *World, n int, check func(w *World)) {
	t.Helper()
	for w.Tick() < uint32(n) {
		if err := push(w, pileCube, pileDrive(w.Tick())); err != nil {
			t.Fatal(err)
		}
		w.Step()
		if check != nil {
			check(w)
		}
	}
}

// The contact views are the cache, one for one, with its bodies, features
// and impulses; every ground contact's point is the vertex the feature
// names, on the plane's side of it; most box contacts' points are found.
func TestContactViewsAreTheCache(t *testing.T) {
	w := mustPile()
	var vs []ContactView
	found, pairs, coloured := 0, 0, 0
	runPile(t, w, 400, func(w *World) {
		vs = w.ContactViews(vs[:0])
		cs := w.Contacts()
		if len(vs) != len(cs) {
			t.Fatalf("tick %d: %d views of %d cached contacts", w.Tick(), len(vs), len(cs))
		}
		for k := range cs {
			v, c := &vs[k], &cs[k]
			if v.A != c.A || v.B != c.B || v.Feature != c.Feature || v.Pn != c.Pn {
				t.Fatalf("tick %d: view %d is %d-%d %x Pn %v, cache %d-%d %x Pn %v", w.Tick(), k, v.A, v.B, v.Feature, v.Pn, c.A, c.B, c.Feature, c.Pn)
			}
			if d := v.Friction.Dot(v.Normal); abs(d) > 1e-9*(1+v.Friction.Len()) {
				t.Fatalf("tick %d: friction %v not in the plane of normal %v", w.Tick(), v.Friction, v.Normal)
			}
			want := mul(c.Pt1, c.Pt1) + mul(c.Pt2, c.Pt2)
			if got := v.Friction.Dot(v.Friction); abs(got-want) > 1e-9*(1+want) {
				t.Fatalf("tick %d: friction %v, cached impulses %v %v", w.Tick(), v.Friction, c.Pt1, c.Pt2)
			}
			if c.B == Ground {
				if !v.Found || v.Point.Y < -0.01 || v.Point.Y > 0.1 {
					t.Fatalf("tick %d: ground contact of %d at %v", w.Tick(), c.A, v.Point)
				}
				continue
			}
			pairs++
			if v.Found {
				found++
			}
			if v.Colour != ColourNone {
				coloured++
			}
		}
	})
	if pairs == 0 || found < pairs*9/10 {
		t.Errorf("%d of %d contacts between boxes found in the current poses", found, pairs)
	}
	if coloured == 0 {
		t.Errorf("no contact between boxes coloured in 400 steps")
	}
}

// No moving body has two contacts of different pairs in one colour, and a
// contact has a colour exactly when the last step moved one of its bodies.
func TestContactViewsColours(t *testing.T) {
	w := mustPile()
	var vs []ContactView
	runPile(t, w, 400, func(w *World) {
		vs = w.ContactViews(vs[:0])
		owner := map[[2]int32][2]int32{} // (colour, body) -> the pair that holds it
		for _, v := range vs {
			if moved := w.wasActive(v); moved != (v.Colour != ColourNone) {
				t.Fatalf("tick %d: contact %d-%d has colour %d, moved by the last step %v", w.Tick(), v.A, v.B, v.Colour, moved)
			}
			if v.Colour < 0 {
				continue
			}
			for _, b := range [2]int32{v.A, v.B} {
				if b == Ground || w.Static(int(b)) || w.ctx.sidx[b] < 0 {
					continue
				}
				key := [2]int32{int32(v.Colour), b}
				if p, ok := owner[key]; ok && p != [2]int32{v.A, v.B} {
					t.Fatalf("tick %d: body %d in colour %d by pairs %v and %d-%d", w.Tick(), b, v.Colour, p, v.A, v.B)
				}
				owner[key] = [2]int32{v.A, v.B}
			}
		}
	})
}

// wasActive reports whether the last step moved a body of v.
func (w *World) wasActive(v ContactView) bool {
	return w.ctx.sidx[v.A] >= 0 || (v.B != Ground && w.ctx.sidx[v.B] >= 0)
}

// Islands against a search of its own over the cache: the same count and
// the same groups, and after every step an island sleeps whole or not at
// all.
func TestIslandsAreTheCachesGroups(t *testing.T) {
	w := mustPile()
	var island []int32
	seen := map[int]bool{}
	runPile(t, w, 1024, func(w *World) {
		var n int
		island, n = w.Islands(island)
		want, groups := searchIslands(w)
		if n != want {
			t.Fatalf("tick %d: %d islands, the search finds %d", w.Tick(), n, want)
		}
		seen[n] = true
		for i := range island {
			if groups[i] != island[i] {
				t.Fatalf("tick %d: body %d in island %d, the search says %d", w.Tick(), i, island[i], groups[i])
			}
			if r := island[i]; r >= 0 && w.Body(i).Asleep != w.Body(int(r)).Asleep {
				t.Fatalf("tick %d: island %d sleeps in part (body %d)", w.Tick(), r, i)
			}
		}
	})
	if len(seen) < 2 {
		t.Errorf("the island count never changed in 1024 steps: %v", seen)
	}
}

// searchIslands groups the dynamic, enabled bodies by a depth-first search
// over the cache's contacts between two such bodies, each group named by
// its smallest index (-1 for the others), and counts the groups.
func searchIslands(w *World) (int, []int32) {
	n := w.NumBodies()
	dyn := func(i int32) bool { return i >= 0 && !w.Static(int(i)) && w.Enabled(int(i)) }
	adj := make([][]int32, n)
	for _, c := range w.Contacts() {
		if dyn(c.A) && dyn(c.B) {
			adj[c.A] = append(adj[c.A], c.B)
			adj[c.B] = append(adj[c.B], c.A)
		}
	}
	group := make([]int32, n)
	for i := range group {
		group[i] = -2
	}
	count := 0
	for i := 0; i < n; i++ {
		if !dyn(int32(i)) {
			group[i] = -1
			continue
		}
		if group[i] != -2 {
			continue
		}
		count++
		stack := []int32{int32(i)}
		group[i] = int32(i)
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, o := range adj[k] {
				if group[o] == -2 {
					group[o] = int32(i)
					stack = append(stack, o)
				}
			}
		}
	}
	return count, group
}

// The pairs are those of the last step, each with overlapping bounds, and
// asking for views changes no bit of the run.
func TestViewsChangeNothing(t *testing.T) {
	a, b := mustPile(), mustPile()
	var vs []ContactView
	var ps [][2]int32
	var isl []int32
	runPile(t, b, 600, nil)
	runPile(t, a, 600, func(w *World) {
		vs = w.ContactViews(vs[:0])
		isl, _ = w.Islands(isl)
		ps = w.Pairs(ps[:0])
		for _, p := range ps {
			la, ha := w.Bounds(int(p[0]))
			lb, hb := w.Bounds(int(p[1]))
			if p[0] >= p[1] || la.X > hb.X || lb.X > ha.X || la.Y > hb.Y || lb.Y > ha.Y || la.Z > hb.Z || lb.Z > ha.Z {
				t.Fatalf("tick %d: pair %v of bounds that do not overlap", w.Tick(), p)
			}
		}
	})
	if a.Hash() != b.Hash() {
		t.Fatalf("views changed the run: %x, without them %x", a.Hash(), b.Hash())
	}
}

// After a Load the views of the last step do not describe the loaded
// state: Stepped is false, Pairs gives none, every contact is ColourNone
// and Bounds holds each body's pose at rest; the next step brings them
// back, the same as a world that stepped straight there.
func TestViewsAfterALoad(t *testing.T) {
	w, straight := mustPile(), mustPile()
	if w.Stepped() {
		t.Fatal("a new world says it stepped")
	}
	runPile(t, w, 200, nil)
	var saved State
	w.Save(&saved)
	runPile(t, w, 260, nil) // elsewhere
	if !w.Stepped() || len(w.Pairs(nil)) == 0 {
		t.Fatal("no pairs after a step")
	}
	w.Load(&saved)
	if w.Stepped() || len(w.Pairs(nil)) != 0 {
		t.Fatalf("after a Load: stepped %v, %d pairs: want none", w.Stepped(), len(w.Pairs(nil)))
	}
	vs := w.ContactViews(nil)
	if len(vs) == 0 {
		t.Fatal("no contacts at tick 200")
	}
	for _, v := range vs {
		if v.Colour != ColourNone {
			t.Fatalf("after a Load: contact %d-%d has colour %d", v.A, v.B, v.Colour)
		}
	}
	moved := 0 // bodies whose bounds at tick 260 would not hold them
	for i := range w.NumBodies() {
		if w.Static(i) {
			continue
		}
		lo, hi := w.Bounds(i)
		p, h := w.Body(i).Pos, w.Half(i)
		r := min(h.X, h.Y, h.Z) // a box holds the ball of its smallest half extent
		if lo.X > p.X-r || lo.Y > p.Y-r || lo.Z > p.Z-r || hi.X < p.X+r || hi.Y < p.Y+r || hi.Z < p.Z+r {
			t.Fatalf("after a Load: body %d at %v, bounds %v to %v", i, p, lo, hi)
		}
		if b := w.bounds[i]; b.lo.X > p.X-r || b.lo.Y > p.Y-r || b.lo.Z > p.Z-r || b.hi.X < p.X+r || b.hi.Y < p.Y+r || b.hi.Z < p.Z+r {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no body moved out of its bounds between ticks 200 and 260: the test shows nothing")
	}
	runPile(t, w, 201, nil)
	runPile(t, straight, 201, nil)
	got, want := w.Pairs(nil), straight.Pairs(nil)
	if !w.Stepped() || len(got) != len(want) {
		t.Fatalf("a step after the Load: %d pairs, straight there %d", len(got), len(want))
	}
	for k := range got {
		if got[k] != want[k] {
			t.Fatalf("pair %d: %v, straight there %v", k, got[k], want[k])
		}
	}
	a, b := w.ContactViews(nil), straight.ContactViews(nil)
	for k := range a {
		if a[k].Colour != b[k].Colour {
			t.Fatalf("contact %d: colour %d, straight there %d", k, a[k].Colour, b[k].Colour)
		}
	}
}
