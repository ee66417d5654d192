package viewer

import (
	"fmt"
	"strings"
	"testing"
)

// TestStageReport: at a divergence of a record with stage hashes, S shows
// the stage report in place of the field report (and R the other way
// round): the divergent tick's step, its first differing stage (activate,
// for a step that started from a velocity the record does not have), both
// hashes, and the commands that name the value; a record without stage
// hashes says how to make one; without a divergence S shows nothing and
// says why.
func TestStageReport(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 300, fullEvery: 64, nudgeAt: 150, stages: true})
	v := openView(t, rec)
	d := v.Status().First.Divergence
	if err := v.Act(Report); err != nil || !v.ShowReport {
		t.Fatalf("R: %v, report %v", err, v.ShowReport)
	}
	if err := v.Act(Stages); err != nil || !v.ShowStages || v.ShowReport {
		t.Fatalf("S: %v, stages %v, field report %v", err, v.ShowStages, v.ShowReport)
	}
	lines := strings.Join(v.StageLines(), "\n")
	tick := d.Tick - 1
	for _, want := range []string{
		"Stage report, tick " + fmt.Sprint(tick) + "'s step",
		"first differing stage\t0 of ",
		": activate\n",
		"its hash\trecorded ",
		"which value\tcube replay -trace " + fmt.Sprint(tick) + " -o A.stg s.rec on each machine",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("the stage report lacks %q:\n%s", want, lines)
		}
	}
	if err := v.Act(Report); err != nil || v.ShowStages || !v.ShowReport {
		t.Fatalf("R after S: stages %v, field report %v", v.ShowStages, v.ShowReport)
	}
	if err := v.Act(Stages); err != nil || !v.ShowStages {
		t.Fatal("S again")
	}
	if err := v.Act(Stages); err != nil || v.ShowStages {
		t.Fatal("S does not close the stage report")
	}

	plain := openView(t, writeRecord(t, session{scene: "arena", ticks: 300, fullEvery: 64, nudgeAt: 150}))
	if l := strings.Join(plain.StageLines(), "\n"); !strings.Contains(l, "none in this record: record with -record-stages") {
		t.Errorf("a record without stage hashes:\n%s", l)
	}
	clean := openView(t, writeRecord(t, session{scene: "arena", ticks: 200, fullEvery: 64, nudgeAt: -1, stages: true}))
	if err := clean.Act(Stages); err != nil || clean.ShowStages || !strings.HasPrefix(clean.Note, "no divergence found") || clean.StageLines() != nil {
		t.Fatalf("S on a clean record: %v, shown %v, note %q", err, clean.ShowStages, clean.Note)
	}
}
