package physics

import (
	"math/bits"
	"slices"
)

// The constraint graph's colours (Box2D v3's constraint_graph.c, recomputed
// every step from the canonical contact order, as Jolt's island splitter
// is). Every contact of the step, in key order, takes a colour that
// neither of its moving bodies has yet: a contact between two moving
// bodies the lowest such colour, a contact whose other side does not move
// this step (the ground, a static or a sleeping box; that side takes no
// colour) the highest. No
// moving body appears twice in a colour, so the contacts of a colour can
// be solved in any order, by any worker, with the same bits. A contact
// that finds no free colour among colourCount goes to the overflow, which
// every pass solves serially, in key order, before the colours.
//
// The passes solve the colours in increasing order, so a box's contacts
// with what does not move come after its contacts with other moving
// bodies, as they mostly do in key order: a light cube pressed into the
// ground by a heavy one is stopped by the ground in the same pass. With
// every contact taking the lowest free colour, the ground contacts of the
// cubes scene's small cubes took colour 0 and were solved before the
// player's cube pressed on them, and the scene's deepest overlap over
// 1024 steps grew from 3.9 cm (key order) to 9.5 cm; with this rule, 4.4
// cm.
//
// A contact's colour is a function of the contacts before it in key order
// that share a moving body with it, and so, step by step, of the contacts
// of the bodies it is linked to: never of the rest of the world, which
// keeps partial replay exact (partial.go). Nothing in it depends on the
// worker count; the colours are derived from the step's contacts, which
// derive from the saved state, so Save and Restore need not hold them.

// colourCount is the number of colours. Greedy colouring in key order
// needs at most twice a body's contacts with other moving bodies, less
// one; a cube in a pile touches at most about ten. Box2D v3 uses 24.
const colourCount = 24

// colouring is the step's colours: colour k's contacts (indices into
// ctx.cons) are list[at[k+1]:at[k+2]], the overflow's list[at[0]:at[1]],
// each in key order.
type colouring struct {
	bits  []uint32 // by solver body: the colours that hold one of its contacts
	of    []uint8  // by constraint: its colour, or colourCount for the overflow
	at    [colourCount + 2]int32
	list  []int32
	limit int // colours in use (colourCount; tests lower it to fill the overflow)
}

// colour colours this step's contacts (see above).
func (w *World) colour() {
	g := &w.ctx.graph
	n, m := len(w.ctx.sb), len(w.ctx.cons)
	g.bits = slices.Grow(g.bits[:0], n)[:n]
	clear(g.bits)
	g.of = slices.Grow(g.of[:0], m)[:m]
	mask := uint32(1)<<g.limit - 1
	var count [colourCount + 1]int32
	for ci := range w.ctx.cons {
		c := &w.ctx.cons[ci]
		used := g.bits[c.s1]
		if c.s2 >= 0 {
			used |= g.bits[c.s2]
		}
		k := colourCount
		if free := ^used & mask; free != 0 && c.s2 < 0 {
			k = 31 - bits.LeadingZeros32(free)
			g.bits[c.s1] |= 1 << k
		} else if free != 0 {
			k = bits.TrailingZeros32(free)
			g.bits[c.s1] |= 1 << k
			if c.s2 >= 0 {
				g.bits[c.s2] |= 1 << k
			}
		}
		g.of[ci] = uint8(k)
		count[k]++
	}
	// The overflow first, then colour by colour.
	var next [colourCount + 1]int32 // where each colour's next contact goes; the overflow's at 0
	end := count[colourCount]
	g.at[0], g.at[1] = 0, end
	for k := 0; k < colourCount; k++ {
		next[k] = end
		end += count[k]
		g.at[k+2] = end
	}
	g.list = slices.Grow(g.list[:0], m)[:m]
	for ci := range w.ctx.cons {
		k := g.of[ci]
		g.list[next[k]] = int32(ci)
		next[k]++
	}
}

// colours returns the number of colours that hold a contact this step.
func (g *colouring) colours() int {
	n := 0
	for k := 0; k < colourCount; k++ {
		if g.at[k+2] > g.at[k+1] {
			n++
		}
	}
	return n
}

// overflow returns the number of contacts in the overflow this step.
func (g *colouring) overflow() int { return int(g.at[1]) }
