package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlotFlag: -plot refuses a name that is not a PNG, a folder and a
// missing folder before the run; a run writes a PNG after its summary.
func TestPlotFlag(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "f.png")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "run.jpg"), "ending in .png"},
		{folder, "is a folder"},
		{filepath.Join(dir, "missing", "run.png"), "does not exist"},
	} {
		code, out, errs := runCube("sim", "-seconds", "100", "-plot", c.path)
		oneLine(t, "-plot "+c.path, code, 2, out, errs, c.want)
	}
	path := filepath.Join(dir, "run.png")
	code, out, errs := runCube("sim", "-seconds", "2", "-plot", path)
	if code != 0 || !strings.Contains(out, "IN SYNC") {
		t.Fatalf("sim -plot: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("the plot is not a PNG: %v, %d bytes", err, len(b))
	}
}
