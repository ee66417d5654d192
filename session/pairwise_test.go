package session

import "math/rand/v2"

// factor is one switch of a run and the values it takes.
type factor struct {
	name   string
	levels int
}

// pairwise returns rows (one level per factor) such that every pair of
// levels of every two factors appears in some row that allowed accepts: a
// covering array of strength 2, built greedily from seeded candidates, so
// that every combination of two modes is tried without trying them all.
// Pairs no allowed row can hold are left out.
func pairwise(fs []factor, allowed func(row []int) bool, seed uint64) [][]int {
	type pair struct{ a, la, b, lb int }
	covered := func(row []int, p pair) bool { return row[p.a] == p.la && row[p.b] == p.lb }
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	random := func() []int {
		row := make([]int, len(fs))
		for i, f := range fs {
			row[i] = r.IntN(f.levels)
		}
		return row
	}
	// Every pair some allowed row holds (found by search over random rows
	// fixed at the pair: the constraints here are few and simple).
	var open []pair
	for a := range fs {
		for b := a + 1; b < len(fs); b++ {
			for la := 0; la < fs[a].levels; la++ {
				for lb := 0; lb < fs[b].levels; lb++ {
					p := pair{a, la, b, lb}
					for try := 0; try < 200; try++ {
						row := random()
						row[a], row[b] = la, lb
						if allowed(row) {
							open = append(open, p)
							break
						}
					}
				}
			}
		}
	}
	var rows [][]int
	for len(open) > 0 {
		// Start from the first open pair, so that every row covers one.
		best, bestN := []int(nil), -1
		for c := 0; c < 64; c++ {
			row := random()
			row[open[0].a], row[open[0].b] = open[0].la, open[0].lb
			if !allowed(row) {
				continue
			}
			n := 0
			for _, p := range open {
				if covered(row, p) {
					n++
				}
			}
			if n > bestN {
				best, bestN = row, n
			}
		}
		if best == nil {
			open = open[1:] // no allowed candidate found this time: give the pair up
			continue
		}
		rows = append(rows, best)
		left := open[:0]
		for _, p := range open {
			if !covered(best, p) {
				left = append(left, p)
			}
		}
		open = left
	}
	return rows
}
