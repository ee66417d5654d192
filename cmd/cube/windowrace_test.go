//go:build cgo

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWindowSimulatesBesideTheDrawingWithoutARace runs the window, built
// with the race detector, with bots, every debug layer and the autopilot:
// the lab's simulation runs on its own goroutine beside the drawing of
// the frame before (window.Run), and nothing of the lab may be read by the
// one while the other writes it. The race detector fails the run if it is.
func TestWindowSimulatesBesideTheDrawingWithoutARace(t *testing.T) {
	needDisplay(t)
	if testing.Short() {
		t.Skip("builds the program with -race: about a minute")
	}
	bin := filepath.Join(t.TempDir(), "cube-race")
	if out, err := exec.Command("go", "build", "-race", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build -race: %v\n%s", err, out)
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(bin, "-scene", "arena", "-bots", "2", "-autopilot", "-preset", "average",
		"-draw", "all", "-width", "640", "-height", "360", "-frames", "90", "-screenshot", shot)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "DATA RACE") {
		t.Fatalf("cube under the race detector: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "90 frames at 640x360") || !strings.Contains(string(out), "beside drawing") {
		t.Fatalf("no closing line with the simulation beside the drawing:\n%s", out)
	}
}
