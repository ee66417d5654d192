package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cubelab/cube/internal/desync"
	"github.com/cubelab/cube/predict"
)

// readOnlyDir mounts an empty read-only tmpfs at a new folder (as root; the
// test is skipped otherwise) and unmounts it at the end.
func readOnlyDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("cannot mount a read-only tmpfs (root only): %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, 0) })
	if f, err := os.CreateTemp(dir, "x"); err == nil {
		f.Close()
		t.Fatalf("%s is writable", dir)
	}
	return dir
}

// TestAReadOnlyFolderNeedsNoReport: cube sim runs in a read-only working
// folder (it writes nothing there unless a report is due); -report-dir
// naming that folder is still refused before the run, with the reason.
func TestAReadOnlyFolderNeedsNoReport(t *testing.T) {
	ro := readOnlyDir(t)
	bin := buildCubeHeadless(t)
	run := func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = ro
		out, _ := cmd.CombinedOutput()
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := run("sim", "-seconds", "1"); code != 0 || !strings.Contains(out, "IN SYNC") {
		t.Errorf("cube sim in a read-only folder: exit %d:\n%s", code, out)
	}
	if code, out := run("sim", "-seconds", "1", "-report-dir", "."); code != 2 || !strings.Contains(out, "-report-dir: cannot create a file in folder") || strings.Contains(out, ".cube-write-check") {
		t.Errorf("cube sim -report-dir . in a read-only folder: exit %d, want 2 and why:\n%s", code, out)
	}
	// A report that is due there says on stderr that it could not be written.
	m := &predict.Misprediction{Kind: predict.KindNondeterminism, Tick: 7}
	var errs strings.Builder
	if path := desync.Report(&errs, &errs, ro, m); path != "" || !strings.Contains(errs.String(), "could not be written") {
		t.Errorf("report %q, stderr %q", path, errs.String())
	}
}

// buildCubeHeadless builds the program without cgo (no window) into a
// temporary folder.
func buildCubeHeadless(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cube")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}
