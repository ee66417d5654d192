package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayTraceAndDiff: cube replay -trace writes the stage trace of a
// tick; two traces of one record agree (exit 0); the trace of a copy whose
// cube's velocity was moved one ulp at that tick differs (exit 1), and the
// diff names the stage and the value; bad uses are refused with how to use
// them.
func TestReplayTraceAndDiff(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "s.rec")
	if code, _, errs := runCube("sim", "-preset", "good", "-seconds", "5", "-record", rec); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errs)
	}
	cp := filepath.Join(dir, "p.rec")
	if code, _, errs := runCube("replay", "-perturb", "200:0:vel.x", "-o", cp, rec); code != 0 {
		t.Fatalf("-perturb: exit %d: %s", code, errs)
	}
	a, a2, b := filepath.Join(dir, "a.stg"), filepath.Join(dir, "a2.stg"), filepath.Join(dir, "b.stg")
	for _, c := range [][2]string{{rec, a}, {rec, a2}, {cp, b}} {
		code, out, errs := runCube("replay", "-trace", "200", "-o", c[1], c[0])
		if code != 0 || !strings.Contains(out, "the stage trace of tick 200") {
			t.Fatalf("-trace: exit %d, %q, %q", code, out, errs)
		}
	}
	if code, out, _ := runCube("replay", "-diff-trace", a, a2); code != 0 || !strings.Contains(out, "agree at every stage") {
		t.Fatalf("same record: exit %d\n%s", code, out)
	}
	code, out, _ := runCube("replay", "-diff-trace", a, b)
	if code != 1 || !strings.Contains(out, "first differing stage") || !strings.Contains(out, "body 0 vel.x: ") {
		t.Fatalf("perturbed copy: exit %d\n%s", code, out)
	}
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("no trace"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-trace", "200", rec}, "-o FILE"},
		{[]string{"-trace", "x", "-o", filepath.Join(dir, "c.stg"), rec}, "want a tick"},
		{[]string{"-trace", "99999", "-o", filepath.Join(dir, "c.stg"), rec}, "does not simulate tick 99999"},
		{[]string{"-trace", "200", "-o", a, rec}, "exists"},
		{[]string{"-diff-trace", a}, "cube replay -diff-trace A B"},
		{[]string{"-diff-trace", a, junk}, "not a stage trace file"},
	} {
		code, _, errs := runCube(append([]string{"replay"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "c.stg")); !os.IsNotExist(err) {
		t.Errorf("a refused -trace left its file: %v", err)
	}
}

// TestRecordStages: sim -record-stages writes a record whose ticks carry
// stage hashes and that replays; a perturbed copy diverges between two
// steps, and cube replay says by itself that every stage of the step
// agrees; -record-stages without -record is refused.
func TestRecordStages(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "s.rec")
	if code, _, errs := runCube("sim", "-preset", "good", "-seconds", "3", "-record", rec, "-record-stages"); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errs)
	}
	if code, out, errs := runCube("replay", rec); code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Fatalf("replay: exit %d: %s %s", code, out, errs)
	}
	cp := filepath.Join(dir, "p.rec")
	if code, _, errs := runCube("replay", "-perturb", "100:0:vel.x", "-o", cp, rec); code != 0 {
		t.Fatalf("-perturb: exit %d: %s", code, errs)
	}
	code, out, _ := runCube("replay", cp)
	if code != 1 || !strings.Contains(out, "diverged at tick 100") || !strings.Contains(out, "stages of tick 99's step agree with the record") {
		t.Fatalf("perturbed copy: exit %d\n%s", code, out)
	}
	if code, _, errs := runCube("sim", "-seconds", "1", "-record-stages"); code != 2 || !strings.Contains(errs, "add -record FILE") {
		t.Fatalf("-record-stages alone: exit %d, %s", code, errs)
	}
}
