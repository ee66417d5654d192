package protocol

import (
	"math/rand/v2"
	"testing"

	"github.com/cubelab/cube/physics"
)

// viewState returns a state of n bodies whose position x is v+i, so that
// every body of every version differs.
func viewState(n int, v float64) *physics.State {
	s := &physics.State{Bodies: make([]physics.BodyState, n)}
	for i := range s.Bodies {
		s.Bodies[i].Pos.X = v + float64(i)
		s.Bodies[i].Rot.W = 1
	}
	return s
}

// TestViewsMatchCopies derives views from random held baselines, changing
// random bodies, with transfers' whole views and resets among them, over
// several turns of the ring, and checks every view held against a plain
// copy kept beside it: views that share chunks never see each other's
// changes, and a chunk is reused only when no view holds it.
func TestViewsMatchCopies(t *testing.T) {
	const n = 37 // five chunks, the last one short
	r := rand.New(rand.NewPCG(5, 6))
	var v Views
	model := map[uint32][]physics.BodyState{}
	held := func() []uint32 { // the ticks of the views held, in tick order
		var ts []uint32
		for tk := uint32(0); tk < 4000; tk++ {
			if v.Get(tk) != nil {
				ts = append(ts, tk)
			}
		}
		return ts
	}
	v.Reset(0, viewState(n, 0))
	model[0] = append([]physics.BodyState(nil), viewState(n, 0).Bodies...)
	tk := uint32(0)
	for op := 0; op < 3*ViewRing+50; op++ {
		tk++
		switch k := r.IntN(50); {
		case k == 0:
			v.Reset(tk, viewState(n, float64(tk)*100))
			clear(model)
			model[tk] = append([]physics.BodyState(nil), viewState(n, float64(tk)*100).Bodies...)
		case k < 3:
			v.Add(tk, viewState(n, float64(tk)*100))
			model[tk] = append([]physics.BodyState(nil), viewState(n, float64(tk)*100).Bodies...)
		default:
			ts := held()
			bt := ts[r.IntN(len(ts))]
			base := v.Get(bt)
			cur := append([]physics.BodyState(nil), model[bt]...)
			var idx []int32
			for i := 0; i < n; i++ {
				if r.IntN(6) == 0 {
					idx = append(idx, int32(i))
					cur[i].Pos.Y = float64(tk)
				}
			}
			v.Derive(tk, base, idx, cur)
			model[tk] = cur
		}
		// The model forgets what the ring dropped.
		for mt := range model {
			if v.Get(mt) == nil {
				delete(model, mt)
			}
		}
		for _, ht := range held() {
			x, want := v.Get(ht), model[ht]
			if want == nil {
				t.Fatalf("op %d: view %d held, the model has none", op, ht)
			}
			for i := 0; i < n; i++ {
				if *x.Body(i) != want[i] {
					t.Fatalf("op %d: view %d body %d: %+v, want %+v", op, ht, i, *x.Body(i), want[i])
				}
			}
			if got := x.Fill(nil); len(got) != n {
				t.Fatalf("op %d: Fill gave %d bodies", op, len(got))
			}
		}
	}
	// No chunk is both free and held.
	free := map[*chunk]bool{}
	for _, c := range v.free {
		if free[c] || c.refs != 0 {
			t.Fatalf("a free chunk listed twice, or held %d times", c.refs)
		}
		free[c] = true
	}
	for i := range v.ring {
		for _, c := range v.ring[i].chunks {
			if free[c] {
				t.Fatal("a chunk held by a view is on the free list")
			}
		}
	}
}

// TestViewsDeriveDoesNotAllocate: once the ring has turned, deriving a view
// reuses the chunks the overwritten views let go of.
func TestViewsDeriveDoesNotAllocate(t *testing.T) {
	const n = 901
	var v Views
	s := viewState(n, 0)
	v.Reset(0, s)
	idx := []int32{0, 9, 17, 400, 900}
	tk := uint32(0)
	step := func() {
		tk++
		base := v.Newest()
		for _, i := range idx {
			s.Bodies[i].Pos.Y = float64(tk)
		}
		v.Derive(tk, base, idx, s.Bodies)
	}
	for k := 0; k < 2*ViewRing; k++ {
		step()
	}
	if a := testing.AllocsPerRun(1000, step); a != 0 {
		t.Fatalf("%v allocations a view", a)
	}
}
