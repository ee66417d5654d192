//go:build cgo

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/window"

	"github.com/cubelab/cube/ui/render"
)

// refusedWindowLab dials srv with the window's flags args and runs frames
// until the server's answer ends the connection.
func refusedWindowLab(t *testing.T, srv *testServer, args ...string) *lab.Lab {
	t.Helper()
	fs := cli.NewFlags("window", "", io.Discard)
	wf := registerWindowFlags(fs)
	if err := fs.Parse(append([]string{"-connect", srv.addr, "-pin", srv.pin}, args...)); err != nil {
		t.Fatal(err)
	}
	wf.set = map[string]bool{"connect": true, "pin": true}
	fs.Visit(func(f *flag.Flag) { wf.set[f.Name] = true })
	if _, err := wf.check(); err != nil {
		t.Fatal(err)
	}
	r, err := dialWindow(wf, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	l := lab.NewRemote(r, true, 0, 1)
	for start := time.Now(); l.Lost() == nil && time.Since(start) < 10*time.Second; {
		time.Sleep(time.Second / 60)
		if err := l.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if l.Lost() == nil {
		t.Fatal("the server did not refuse the client within 10 s")
	}
	return l
}

// TestARefusedWindowSaysWhyInFull: a window client of another scene is
// refused; the window shows the reason whole, wrapped in its banner with
// how to leave, from 640x360 up, and says it on stderr once.
func TestARefusedWindowSaysWhyInFull(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	srv := startServer(t) // the arena
	l := refusedWindowLab(t, srv, "-scene", "cubes")
	var ee exitError
	if !errors.As(l.Lost(), &ee) || ee.code != 1 {
		t.Fatalf("lost %v, want an exit status 1", l.Lost())
	}
	why := l.Lost().Error()
	if !strings.Contains(why, "refused this client: it runs another scene") || !strings.Contains(why, "the server runs arena (8 players) in state sync") || !strings.Contains(why, "this client built cubes") {
		t.Fatalf("reason %q", why)
	}
	var f render.Frame
	window.BuildFrame(l, &f)
	// It never joined: no player's cube (the scene's eight slots stood in
	// a line), and the HUD says nothing runs and nothing drives a cube.
	if red, slots, _ := countBoxes(&f); red != 0 || slots != 0 {
		t.Errorf("%d red cubes and %d in a slot's colour, want none: no player joined", red, slots)
	}
	for _, compact := range []bool{false, true} {
		l.Compact = compact
		hud := strings.Join(l.HUD(), "\n")
		if strings.Contains(hud, "running") || strings.Contains(hud, "keyboard") || strings.Contains(hud, "autopilot") || !strings.Contains(hud, "stopped") || !strings.Contains(hud, "never joined") {
			t.Errorf("compact %v: the HUD says the session runs or what drives the cube, or not that it stopped and never joined:\n%s", compact, hud)
		}
	}
	l.Compact = false
	if !strings.HasPrefix(f.Banner, "REFUSED BY THE SERVER\n") || !strings.Contains(f.Banner, why) || !strings.Contains(f.Banner, "Esc") {
		t.Fatalf("banner %q, want the title, the reason %q in full and how to leave", f.Banner, why)
	}
	for _, sz := range [][2]int{{640, 360}, {1280, 720}, {1920, 1080}} {
		for _, prob := range render.LayoutProblems(&f, sz[0], sz[1]) {
			if strings.HasPrefix(prob, "banner") {
				t.Errorf("%dx%d: %s", sz[0], sz[1], prob)
			}
		}
	}
	if got := l.LostNews(); got != l.Lost() {
		t.Errorf("first news %v, want the reason", got)
	}
	if got := l.LostNews(); got != nil {
		t.Errorf("second news %v, want none: stderr says it once", got)
	}
}

// TestARefusedWindowPrintsWhyAtOnceAndExits1: the program prints the
// reason on stderr while the window is still open, then ends with exit
// status 1 and no second copy of the reason.
func TestARefusedWindowPrintsWhyAtOnceAndExits1(t *testing.T) {
	needDisplay(t)
	if testing.Short() {
		t.Skip("real time")
	}
	bin := buildCube(t)
	srv := startServer(t, "-sync", "inputs")
	shot := filepath.Join(t.TempDir(), "refused.png")
	cmd := exec.Command(bin, "-connect", srv.addr, "-pin", srv.pin, "-scene", "arena", "-width", "640", "-height", "360", "-frames", "600", "-screenshot", shot)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stderr)
	for first := true; sc.Scan(); {
		lines = append(lines, sc.Text())
		if first && strings.Contains(sc.Text(), "refused this client") {
			first = false
			// The process is still running (not a zombie): the window is open.
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
			if f := strings.Fields(string(stat)); err != nil || len(f) < 3 || f[2] == "Z" {
				t.Errorf("the reason came only as the window closed (%v %q)", err, stat)
			}
		}
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1; stderr %q", code, lines)
	}
	n := 0
	for _, s := range lines {
		if strings.Contains(s, "refused this client: it runs the other sync mode") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("stderr says the reason %d times, want once: %q", n, lines)
	}
}
