//go:build !cgo

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Without cgo there is no window: -window says so and how to go on.
func TestViewerWithoutCgo(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "r.rec")
	if code, _, errs := runCube("sim", "-seconds", "1", "-record", rec); code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	code, _, errs := runCube("replay", "-window", rec)
	if code != 1 || !strings.Contains(errs, "built without cgo") || !strings.Contains(errs, "without -window") {
		t.Fatalf("exit %d, %q", code, errs)
	}
}
