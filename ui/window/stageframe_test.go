//go:build cgo

package window

import (
	"bytes"
	"slices"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
	"github.com/cubelab/cube/ui/viewer"
)

// TestTheViewerDrawsTheStageReport: S puts the view's stage report in
// the viewer's help panel, R its field report, F1 the keys.
func TestTheViewerDrawsTheStageReport(t *testing.T) {
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.HashStages(true)
	h := record.Header{Scene: sc.ID, FullEvery: 32, Stages: true}
	w.Save(&h.Initial)
	var buf bytes.Buffer
	wr, err := record.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	var ins []game.Input
	for k := range 100 {
		if k == 60 { // a velocity the record does not have
			var st physics.State
			w.Save(&st)
			st.Bodies[sc.Players[0]].Vel.Z += 1e-6
			if err := w.Restore(&st); err != nil {
				t.Fatal(err)
			}
		}
		tick := w.Tick()
		ins = sc.Scripted(w, ins)
		if err := sc.Step(w, ins); err != nil {
			t.Fatal(err)
		}
		if err := wr.Stages(w.StageHashes()); err != nil {
			t.Fatal(err)
		}
		if err := wr.Tick(tick, ins, w.Hash(), w.State()); err != nil {
			t.Fatal(err)
		}
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Read(&buf, 0)
	if err != nil {
		t.Fatal(err)
	}
	v, err := viewer.NewView("s.rec", rec)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Check.Wait()
	v.Refresh()
	var f render.Frame
	var tl render.Timeline
	var dbg lab.Debug
	for _, c := range []struct {
		a    viewer.Action
		want []string
	}{
		{viewer.Stages, v.StageLines()},
		{viewer.Report, v.ReportLines()},
		{viewer.Stages, v.StageLines()},
		{viewer.Help, helpLines()},
	} {
		if err := v.Act(c.a); err != nil {
			t.Fatal(err)
		}
		buildViewerFrame(v, &f, &tl, &dbg)
		if !f.ShowHelp || len(c.want) < 3 || !slices.Equal(f.Help, c.want) {
			t.Fatalf("action %d: panel shown %v, lines %q, want %q", c.a, f.ShowHelp, f.Help, c.want)
		}
	}
}
