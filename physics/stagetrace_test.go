package physics

import (
	"math"
	"strings"
	"testing"
)

// tracePile steps the pile 40 ticks (its stack resting, the bouncy cube
// falling), then traces tick 40 with tamper, when not nil, called after
// every stage.
func tracePile(t *testing.T, workers int, tamper func(string, *World)) (*StageTrace, uint64) {
	t.Helper()
	w := setWorkers(mustPile(), workers)
	defer w.Close()
	for range 40 {
		w.Step()
	}
	var tr StageTrace
	w.TraceNext(&tr)
	w.strace.tamper = tamper
	w.Step()
	return &tr, w.Hash()
}

// TestStageTraceListsTheStep: a traced step gives the bits of an untraced
// one on any worker count, and its trace lists the step's stages in order,
// with the solver's passes by substep and colour, each stage's items only
// the values it changed.
func TestStageTraceListsTheStep(t *testing.T) {
	w := mustPile()
	for range 41 {
		w.Step()
	}
	want := w.Hash()
	tr, got := tracePile(t, 1, nil)
	if got != want {
		t.Fatalf("the traced step gives %016x, the step %016x", got, want)
	}
	for _, n := range workerCounts {
		if tr2, h := tracePile(t, n, nil); h != want || DiffTraces(tr, tr2).String() != "the traces agree at every stage" {
			t.Fatalf("%d workers: %016x, and %v", n, h, DiffTraces(tr, tr2))
		}
	}
	if tr.Tick != 40 || tr.Engine != EngineRevision {
		t.Fatalf("tick %d, engine %d", tr.Tick, tr.Engine)
	}
	var names []string
	for _, s := range tr.Stages {
		names = append(names, s.Name)
	}
	all := strings.Join(names, "|")
	for _, want := range []string{"activate|pairs|contacts|colours|substep 1: integrate velocities|substep 1: warm start, colour 1",
		"substep 1: solve, colour 1", "substep 1: integrate positions|substep 1: separations|substep 1: relax, colour 1",
		"substep 4: integrate velocities", "restitution, colour 1", "|store|sleep"} {
		if !strings.Contains(all, want) {
			t.Errorf("the stages lack %q: %s", want, all)
		}
	}
	// integrate positions changes poses, never velocities; the pairs stage
	// only pairs.
	for _, s := range tr.Stages {
		for _, it := range s.Items {
			if strings.HasSuffix(s.Name, "integrate positions") && !strings.HasPrefix(it.Field, "pos.") && !strings.HasPrefix(it.Field, "rot.") {
				t.Errorf("%s changed %s", s.Name, it)
			}
			if s.Name == "pairs" && it.Field != "found" {
				t.Errorf("pairs changed %s", it)
			}
		}
	}
}

// TestStageTraceDiffNamesTheStageAndItem: two traces of one step, one of
// them with a contact's normal impulse one ulp up after substep 2's first
// coloured solve (as an unrounded product on another machine would
// leave it): the diff names that stage, that contact point's pn with both
// values, and counts the items that differ there (one) and after.
func TestStageTraceDiffNamesTheStageAndItem(t *testing.T) {
	a, _ := tracePile(t, 1, nil)
	const at = "substep 2: solve, colour 1"
	var who string
	b, _ := tracePile(t, 1, func(stage string, w *World) {
		if stage != at {
			return
		}
		c := &w.ctx.cons[w.ctx.graph.list[w.ctx.graph.at[1]]]
		p := &w.ctx.pts[c.first]
		p.pn = math.Nextafter(p.pn, math.Inf(1))
		who = (traceKey{kind: 3, a: c.a, b: c.b}).what()
	})
	d := DiffTraces(a, b)
	if d.Same || d.Why != "" || d.Name != at {
		t.Fatalf("diff %+v, want stage %q", d, at)
	}
	if d.What != who || d.Field != "pn" || d.OnlyA || d.OnlyB || d.B != d.A+1 && d.B != d.A-1 || d.Differ != 1 || d.Next < 0 {
		t.Fatalf("diff %+v, want %s pn one ulp apart, alone in its stage", d, who)
	}
	s := d.String()
	if !strings.Contains(s, at) || !strings.Contains(s, who+" pn") || !strings.Contains(s, "1 items differ in this stage") {
		t.Errorf("report:\n%s", s)
	}
	// Traces of other ticks or engines are refused by name.
	c := *a
	c.Tick++
	if d := DiffTraces(a, &c); !strings.Contains(d.String(), "ticks 40 and 41") {
		t.Errorf("other ticks: %s", d)
	}
}
