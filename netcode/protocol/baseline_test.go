package protocol

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// modelView is a view as plain copies: every body's state and the tick of
// the snapshot it came from, and the bodies its own snapshot carried.
type modelView struct {
	b       []physics.BodyState
	src     []uint32
	carried []int32
}

// TestBaselineMatchesTickOrder derives views from references Baseline made
// of random held baselines and random masks, over several turns of the
// ring, and checks every reference and every view against a model that
// applies the bodies of the snapshots named in tick order: both ends get
// the same reference whatever the order in which the views were made.
func TestBaselineMatchesTickOrder(t *testing.T) {
	const n = 37
	r := rand.New(rand.NewPCG(7, 8))
	var v Views
	model := map[uint32]*modelView{}
	start := viewState(n, 0)
	v.Reset(0, start)
	m0 := &modelView{b: slices.Clone(start.Bodies), src: make([]uint32, n)}
	model[0] = m0
	tk := uint32(0)
	named := 0
	for op := 0; op < 3*ViewRing; op++ {
		tk += 1 + uint32(r.IntN(3)) // snapshots need not come every tick
		// A baseline among the views of the last 40 ticks, and a mask
		// of views held before it.
		var bases []uint32
		for mt := range model {
			if tk-mt <= 40 {
				bases = append(bases, mt)
			}
		}
		if len(bases) == 0 {
			bases = append(bases, v.Newest().Tick())
		}
		slices.Sort(bases)
		bt := bases[r.IntN(len(bases))]
		held := v.Mask(bt)
		mask := held & r.Uint64()
		ref, used, missing := v.Baseline(v.Get(bt), mask)
		if ref == nil {
			t.Fatalf("op %d: view %d named by a mask of views held is missing", op, missing)
		}
		if used&^mask != 0 {
			t.Fatalf("op %d: used %#x, not in the mask %#x", op, used, mask)
		}
		if used != mask {
			// The views used alone make the same reference: check it
			// rather than this one.
			if ref, _, _ = v.Baseline(v.Get(bt), used); ref == nil {
				t.Fatalf("op %d: the views used are not held", op)
			}
		}
		// The model: the baseline's bodies, then the named snapshots'
		// carried bodies in tick order, oldest first.
		bm := model[bt]
		want := &modelView{b: slices.Clone(bm.b), src: slices.Clone(bm.src)}
		for i := MaskBits - 1; i >= 0; i-- {
			if mask>>i&1 == 0 {
				continue
			}
			named++
			at := bt - 1 - uint32(i)
			a := model[at]
			for _, j := range a.carried {
				if tick.After(at, want.src[j]) {
					want.b[j], want.src[j] = a.b[j], at
				}
			}
		}
		for j := range n {
			if *ref.Body(j) != want.b[j] || ref.Source(j) != want.src[j] {
				t.Fatalf("op %d: reference of %d mask %#x, body %d from %d, want from %d", op, bt, mask, j, ref.Source(j), want.src[j])
			}
		}
		var idx []int32
		cur := slices.Clone(want.b)
		for j := range n {
			if r.IntN(5) == 0 {
				idx = append(idx, int32(j))
				cur[j].Pos.Y = float64(tk)
				want.b[j], want.src[j] = cur[j], tk
			}
		}
		want.carried = idx
		v.Derive(tk, ref, idx, cur)
		model[tk] = want
		for mt := range model {
			if v.Get(mt) == nil {
				delete(model, mt)
			}
		}
		for mt, mv := range model {
			x := v.Get(mt)
			for j := range n {
				if *x.Body(j) != mv.b[j] || x.Source(j) != mv.src[j] {
					t.Fatalf("op %d: view %d body %d changed since it was made", op, mt, j)
				}
			}
			if mt != 0 && !slices.Equal(x.Carried(), mv.carried) {
				t.Fatalf("op %d: view %d carried %v, want %v", op, mt, x.Carried(), mv.carried)
			}
		}
	}
	if named < ViewRing {
		t.Fatalf("only %d views named: the test shows little", named)
	}
}

// TestBaselineRefusesViewsNotHeld: a mask that names a view this end does
// not hold (never made, or gone from the ring) gives no reference, and
// the tick of the first such view.
func TestBaselineRefusesViewsNotHeld(t *testing.T) {
	var v Views
	v.Reset(100, viewState(9, 0))
	s := viewState(9, 1)
	v.Derive(102, v.Start(), []int32{1}, s.Bodies)
	v.Derive(104, v.Start(), []int32{2}, s.Bodies)
	base := v.Get(104)
	if got := v.Mask(104); got != 1<<1 {
		t.Fatalf("mask of the views before 104: %#b, want view 102 only", got)
	}
	for _, c := range []struct {
		mask uint64
		want uint32
	}{{1 << 0, 103}, {1<<1 | 1<<2, 101}, {1 << 63, 104 - 64}} {
		if ref, _, missing := v.Baseline(base, c.mask); ref != nil || missing != c.want {
			t.Errorf("mask %#x: reference %v, missing %d, want none and %d", c.mask, ref != nil, missing, c.want)
		}
	}
	// Named views give the bodies their snapshots carried, where the
	// baseline holds an older state.
	v.Derive(101, v.Start(), nil, s.Bodies) // a snapshot that carried no body
	v.Derive(106, v.Start(), []int32{3}, s.Bodies)
	ref, used, _ := v.Baseline(v.Get(106), 1<<1|1<<3|1<<4) // views 104, 102 and 101
	if used != 1<<1|1<<3 {
		t.Errorf("used %#b, want views 104 and 102 (101 carried nothing)", used)
	}
	for j, want := range []uint32{100, 102, 104, 106, 100} {
		if ref.Source(j) != want {
			t.Errorf("body %d from %d, want %d", j, ref.Source(j), want)
		}
	}
	if ref.Tick() != 106 {
		t.Errorf("the reference has tick %d, want its baseline's", ref.Tick())
	}
}

// TestBaselineDoesNotAllocate: once the ring has turned, a reference of a
// baseline and a full mask, and the view derived from it, reuse chunks.
func TestBaselineDoesNotAllocate(t *testing.T) {
	const n = 901
	var v Views
	s := viewState(n, 0)
	v.Reset(0, s)
	tk := uint32(0)
	step := func() {
		tk++
		base := v.Newest()
		ref, _, _ := v.Baseline(base, v.Mask(base.Tick()))
		idx := []int32{int32(tk % n), int32((tk * 7) % n)}
		if idx[0] > idx[1] {
			idx[0], idx[1] = idx[1], idx[0]
		}
		for _, i := range idx {
			s.Bodies[i].Pos.Y = float64(tk)
		}
		v.Derive(tk, ref, idx[:1+int(tk%2)], s.Bodies)
	}
	for k := 0; k < 2*ViewRing; k++ {
		step()
	}
	if a := testing.AllocsPerRun(500, step); a != 0 {
		t.Fatalf("%v allocations a view", a)
	}
}

// TestNewerNamesWhatCanGive: Newer names the views held before a baseline
// that carried a body newer than the baseline holds, and no other; the
// reference of the baseline and every view held is the same as of the
// baseline and those.
func TestNewerNamesWhatCanGive(t *testing.T) {
	var v Views
	v.Reset(0, viewState(9, 0))
	s := viewState(9, 1)
	v.Derive(1, v.Start(), []int32{1, 2}, s.Bodies)
	v.Derive(2, v.Start(), []int32{3}, s.Bodies)
	v.Derive(3, v.Get(1), []int32{4}, s.Bodies) // holds 1's bodies
	v.Derive(4, v.Get(3), []int32{2}, s.Bodies) // a newer state of body 2
	base := v.Get(4)
	if got := v.Newer(base); got != 1<<1 {
		t.Fatalf("Newer(4) = %#b, want view 2 only", got)
	}
	all, _, _ := v.Baseline(base, v.Mask(4))
	var want []uint32
	for j := range 9 {
		want = append(want, all.Source(j))
	}
	some, _, _ := v.Baseline(base, v.Newer(base))
	for j := range 9 {
		if some.Source(j) != want[j] {
			t.Errorf("body %d from %d, want %d", j, some.Source(j), want[j])
		}
	}
}
