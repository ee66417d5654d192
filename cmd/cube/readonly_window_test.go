//go:build cgo

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheWindowOpensInAReadOnlyFolder: `cube` with no flags, started in a
// read-only folder, opens its window.
func TestTheWindowOpensInAReadOnlyFolder(t *testing.T) {
	needDisplay(t)
	ro := readOnlyDir(t)
	bin := buildCube(t)
	cmd := exec.Command(bin, "-frames", "3")
	cmd.Dir = ro
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "3 frames at 1280x720") {
		t.Errorf("cube in a read-only folder: %v:\n%s", err, out)
	}
}
