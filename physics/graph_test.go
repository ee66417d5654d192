package physics

import (
	"math"
	"testing"
)

// TestColoursAreLocal steps the test scenes and, after every step, checks
// the colouring: no moving body twice in a colour, the overflow and the
// colours each in key order, and every contact's colour the one that
// colouring its island's contacts alone gives (what partial replay needs,
// partial.go). Islands here are the groups the contacts link through
// moving bodies.
func TestColoursAreLocal(t *testing.T) {
	checked := 0
	for _, limit := range []int{colourCount, 3} {
		for _, sc := range testScenes {
			w := sc.build()
			w.ctx.graph.limit = limit
			for k := 0; k < 400; k++ {
				if err := sc.step(w); err != nil {
					t.Fatal(err)
				}
				if len(w.ctx.cons) > 0 {
					checkColours(t, w, sc.name)
					checked++
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no step had contacts")
	}
}

// checkColours checks the last step's colouring of w (see
// TestColoursAreLocal).
func checkColours(t *testing.T, w *World, name string) {
	t.Helper()
	g := &w.ctx.graph
	cons := w.ctx.cons
	if int(g.at[colourCount+1]) != len(cons) {
		t.Fatalf("%s tick %d: %d contacts listed, %d made", name, w.Tick(), g.at[colourCount+1], len(cons))
	}
	for k := 0; k <= colourCount; k++ {
		seen := map[int32]bool{}
		list := g.list[g.at[k]:g.at[k+1]]
		for q, ci := range list {
			if q > 0 && list[q-1] >= ci {
				t.Fatalf("%s tick %d: list %d out of key order", name, w.Tick(), k)
			}
			if k == 0 {
				continue // the overflow is serial: bodies may repeat
			}
			c := &cons[ci]
			for _, s := range []int32{c.s1, c.s2} {
				if s >= 0 && seen[s] {
					t.Fatalf("%s tick %d: solver body %d twice in colour %d", name, w.Tick(), s, k-1)
				}
				seen[s] = true
			}
		}
	}
	// Islands by moving bodies; each island's contacts coloured alone.
	uf := make([]int32, len(w.ctx.sb))
	for k := range uf {
		uf[k] = int32(k)
	}
	for ci := range cons {
		if c := &cons[ci]; c.s2 >= 0 {
			union(uf, c.s1, c.s2)
		}
	}
	byRoot := map[int32][]int{}
	for ci := range cons {
		r := find(uf, cons[ci].s1)
		byRoot[r] = append(byRoot[r], ci)
	}
	mask := uint32(1)<<g.limit - 1
	for _, island := range byRoot { // each island checked alone: the order of the islands does not matter
		bits := map[int32]uint32{}
		for _, ci := range island {
			c := &cons[ci]
			used := bits[c.s1]
			if c.s2 >= 0 {
				used |= bits[c.s2]
			}
			want := uint8(colourCount)
			if free := ^used & mask; free != 0 {
				k := 0
				if c.s2 < 0 {
					for k = 31; free&(1<<k) == 0; k-- {
					}
				} else {
					for ; free&(1<<k) == 0; k++ {
					}
				}
				want = uint8(k)
				bits[c.s1] |= 1 << k
				if c.s2 >= 0 {
					bits[c.s2] |= 1 << k
				}
			}
			if g.of[ci] != want {
				t.Fatalf("%s tick %d: contact %d (%d-%d) has colour %d, its island alone gives %d", name, w.Tick(), ci, c.a, c.b, g.of[ci], want)
			}
		}
	}
}

// TestAllOverflowIsKeyOrder: with no colour at all, every contact goes to
// the overflow, each pass is one serial loop in key order, and the step
// gives the bits of key-order Gauss-Seidel; the pile's hash after 3072
// ticks is then revision 3's golden, the last before the colours (with
// revision 5's passes under tall stacks off, heavy.go). This
// ties the stage list to the solver it replaced: only the colouring
// changed the bits.
func TestAllOverflowIsKeyOrder(t *testing.T) {
	for _, sc := range testScenes {
		if sc.name != "pile" {
			continue
		}
		for _, workers := range []int{1, 3} {
			w := setWorkers(sc.build(), workers)
			w.ctx.graph.limit = 0
			w.tallLoad = math.Inf(1) // revision 5's tall-stack passes off
			if err := sc.run(w, 3072); err != nil {
				t.Fatal(err)
			}
			if h, want := w.Hash(), revisionGoldens[3][1]; h != want {
				t.Errorf("%d workers: pile with every contact in the overflow: hash %016x, key order's %016x", workers, h, want)
			}
			w.Close()
		}
	}
}
