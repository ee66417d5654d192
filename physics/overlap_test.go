package physics

import (
	"math"
	"testing"
)

// allPairsOverlap is MaxOverlap's definition written out without its
// shortcuts: every pair of enabled boxes, at least one dynamic, through all
// 15 axes, and every dynamic box against the ground.
func allPairsOverlap(w *World) float64 {
	deepest := 0.0
	n := len(w.shapes)
	for i := 0; i < n; i++ {
		bi := &w.st.Bodies[i]
		if bi.Disabled {
			continue
		}
		ri := rotationMat(bi.Rot)
		if !w.shapes[i].static {
			deepest = max(deepest, -boundsOf(w.shapes[i].half, &ri, bi.Pos, 0).lo.Y)
		}
		for j := i + 1; j < n; j++ {
			bj := &w.st.Bodies[j]
			if bj.Disabled || w.shapes[i].static && w.shapes[j].static {
				continue
			}
			rj := rotationMat(bj.Rot)
			hi, hj := w.shapes[i].half, w.shapes[j].half
			d := bj.Pos.Sub(bi.Pos)
			axes := []Vec3{ri.Col(0), ri.Col(1), ri.Col(2), rj.Col(0), rj.Col(1), rj.Col(2)}
			for a := 0; a < 3; a++ {
				for b := 0; b < 3; b++ {
					c := ri.Col(a).Cross(rj.Col(b))
					if l := c.Len(); l > 1e-9 {
						axes = append(axes, c.Scale(1/l))
					}
				}
			}
			radius := func(r *Mat3, h Vec3, u Vec3) float64 {
				return h.X*abs(r.Col(0).Dot(u)) + h.Y*abs(r.Col(1).Dot(u)) + h.Z*abs(r.Col(2).Dot(u))
			}
			least := math.Inf(1)
			for _, u := range axes {
				least = min(least, radius(&ri, hi, u)+radius(&rj, hj, u)-abs(d.Dot(u)))
			}
			deepest = max(deepest, least)
		}
	}
	return deepest
}

// TestMaxOverlapEqualsAllPairs runs the test scenes and checks, every tick,
// that MaxOverlap gives the all-pairs figure bit for bit: its bound, its
// early stops, the order and poses it keeps between calls change nothing.
// Halfway, each world is rewound 300 ticks (every body moves at once, the
// kept order is far from sorted) and the last body is disabled, then
// enabled again.
func TestMaxOverlapEqualsAllPairs(t *testing.T) {
	for _, sc := range testScenes {
		w := sc.build()
		var early State
		deepest, compared := 0.0, 0
		for k := 0; k < 900; k++ {
			if k == 100 {
				w.Save(&early)
			}
			if k == 400 {
				w.Load(&early)
			}
			if k == 450 || k == 470 {
				if err := w.SetEnabled(len(w.shapes)-1, k == 470); err != nil {
					t.Fatal(err)
				}
			}
			if err := sc.step(w); err != nil {
				t.Fatal(err)
			}
			got, want := MaxOverlap(w), allPairsOverlap(w)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s, tick %d: MaxOverlap %v, all pairs %v", sc.name, w.Tick(), got, want)
			}
			deepest = max(deepest, want)
			compared++
		}
		if deepest <= 0 {
			t.Errorf("%s: nothing overlapped in %d ticks: the comparison showed nothing", sc.name, compared)
		}
		t.Logf("%s: %d ticks, deepest %.4f m", sc.name, compared, deepest)
	}
}

// TestMaxOverlapSeesABodyMovedWithoutAStep checks that the poses MaxOverlap
// keeps from one call to the next follow a body moved by hand.
func TestMaxOverlapSeesABodyMovedWithoutAStep(t *testing.T) {
	w := twoBoxes(t, cubeAt(Vec3{0, 3, 0}, Identity), cubeAt(Vec3{3, 3, 0}, Identity))
	if got := MaxOverlap(w); got != 0 {
		t.Fatalf("apart: overlap %v", got)
	}
	b := w.Body(1)
	b.Pos.X = 0.97
	if err := w.SetBody(1, b); err != nil {
		t.Fatal(err)
	}
	if got := MaxOverlap(w); !near(got, 0.03, 1e-12) {
		t.Fatalf("moved into the other: overlap %v, want 0.03", got)
	}
}
