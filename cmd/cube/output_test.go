package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAReaderThatStopsEarlyEndsNothingBadly: cube sim | head -1 exits 0,
// not 141 (SIGPIPE): the summary's lines after the reader went go nowhere.
// Here the reader is gone before the first line, so that every write
// meets the closed pipe, whatever the timing.
func TestAReaderThatStopsEarlyEndsNothingBadly(t *testing.T) {
	bin := buildCubeHeadless(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // as head does after its line
	cmd := exec.Command(bin, "sim", "-seconds", "1")
	cmd.Stdout = w
	var errs strings.Builder
	cmd.Stderr = &errs
	err = cmd.Run()
	w.Close()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d (%v), want 0; stderr %q", code, err, errs.String())
	}
}

// TestBadRecordAndPlotPathsAreRefusedAlike: a -record or a -plot path that
// cannot be written is a usage error (exit 2) before the run, for both.
func TestBadRecordAndPlotPathsAreRefusedAlike(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such")
	for _, args := range [][]string{
		{"sim", "-seconds", "1", "-record", filepath.Join(missing, "x.rec")},
		{"sim", "-seconds", "1", "-plot", filepath.Join(missing, "x.png")},
		{"sim", "-seconds", "1", "-record", t.TempDir()},
		{"server", "-seconds", "1", "-record", filepath.Join(missing, "x.rec")},
	} {
		code, out, errs := runCube(args...)
		if code != 2 || out != "" || !strings.Contains(errs, args[len(args)-2]) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the flag named", args, code, out, errs)
		}
	}
}

// TestPlotAndRecordConfirmTheWrite: cube sim says where it wrote the plot
// and the record, on stdout after the summary, on stderr with -json.
func TestPlotAndRecordConfirmTheWrite(t *testing.T) {
	dir := t.TempDir()
	plot, rec := filepath.Join(dir, "p.png"), filepath.Join(dir, "r.rec")
	code, out, errs := runCube("sim", "-seconds", "1", "-plot", plot, "-record", rec)
	if code != 0 || !strings.Contains(out, "plot written to "+plot) || !strings.Contains(out, "record written to "+rec) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, p := range []string{plot, rec} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	code, out, errs = runCube("sim", "-seconds", "1", "-json", "-plot", plot)
	if code != 0 || strings.Contains(out, "written") || !strings.Contains(errs, "plot written to "+plot) {
		t.Errorf("-json: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
