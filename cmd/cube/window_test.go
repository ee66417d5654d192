//go:build cgo

package main

import (
	"github.com/cubelab/cube/ui/lab"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildCube builds the program into a temporary folder.
func buildCube(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cube")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// needDisplay skips outside CI when there is no display; in CI (the test
// command runs under xvfb-run) a missing display is a failure.
func needDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("DISPLAY is not set: the test command runs go test under xvfb-run")
	}
	t.Skip("no DISPLAY; run under xvfb-run (scripts/test.sh does)")
}

// shoot runs the window for frames frames with the autopilot on the
// average preset and returns its last frame.
func shoot(t *testing.T, bin string, frames string) image.Image {
	t.Helper()
	return shootWith(t, bin, "-autopilot", "-preset", "average", "-frames", frames)
}

// shootWith runs the window with args and -screenshot and returns the
// picture.
func shootWith(t *testing.T, bin string, args ...string) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(bin, append(args, "-screenshot", path)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cube %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestWindowScreenshot(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	a := shoot(t, bin, "20")
	b := shoot(t, bin, "90")
	if s := a.Bounds().Size(); s.X != 1280 || s.Y != 720 {
		t.Fatalf("screenshot is %v, want 1280x720", s)
	}
	// The player cube is red: lit or shaded, red well above green and blue.
	red := 0
	for y := 0; y < 720; y++ {
		for x := 0; x < 1280; x++ {
			r, g, bl, _ := b.At(x, y).RGBA()
			if r>>8 > 120 && g>>8 < r>>8/2 && bl>>8 < r>>8/2 {
				red++
			}
		}
	}
	if red < 100 {
		t.Fatalf("only %d red pixels: where is the player cube?", red)
	}
	// HUD text: the top-left panel holds bright glyph pixels.
	bright := 0
	for y := 10; y < 60; y++ {
		for x := 10; x < 400; x++ {
			r, g, bl, _ := b.At(x, y).RGBA()
			if r>>8 > 200 && g>>8 > 200 && bl>>8 > 200 {
				bright++
			}
		}
	}
	if bright < 200 {
		t.Fatalf("only %d text pixels in the HUD area", bright)
	}
	// The picture moves: the two frame counts differ in many pixels.
	diff := 0
	for y := 0; y < 720; y += 2 {
		for x := 0; x < 1280; x += 2 {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				diff++
			}
		}
	}
	if diff < 2000 {
		t.Fatalf("frames 20 and 90 differ in %d sampled pixels only", diff)
	}
}

func TestWindowFailsClearlyWithoutDisplay(t *testing.T) {
	bin := buildCube(t)
	// No DISPLAY at all, and a DISPLAY that names no X server.
	for _, display := range []string{"", ":4711"} {
		cmd := exec.Command(bin, "-frames", "1")
		cmd.Env = append(os.Environ(), "DISPLAY="+display, "WAYLAND_DISPLAY=")
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Fatalf("DISPLAY=%q: exit %v, want 1\n%s", display, err, stderr.String())
		}
		// The README promises one line naming the cause and suggesting cube sim.
		out := stderr.String()
		if stdout.Len() != 0 || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
			t.Errorf("DISPLAY=%q: want one line on stderr and nothing on stdout, got %q and %q", display, out, stdout.String())
		}
		if !strings.Contains(out, "no display") || strings.Count(out, "cube sim") != 1 || strings.Contains(out, "goroutine") {
			t.Errorf("DISPLAY=%q: the line does not name the cause and suggest cube sim once: %q", display, out)
		}
	}
	// The viewer's window points to the headless check of its record.
	rec := filepath.Join(t.TempDir(), "s.rec")
	if code, _, errs := runCube("sim", "-seconds", "1", "-record", rec); code != 0 {
		t.Fatalf("recording: exit %d: %s", code, errs)
	}
	cmd := exec.Command(bin, "replay", "-window", rec)
	cmd.Env = append(os.Environ(), "DISPLAY=", "WAYLAND_DISPLAY=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("replay -window without a display: exit %v, want 1\n%s", err, out)
	}
	if s := string(out); !strings.Contains(s, "no display") || !strings.Contains(s, "'cube replay "+rec+"'") || strings.Contains(s, "cube sim") {
		t.Errorf("replay -window without a display: want the cause and 'cube replay %s', got %q", rec, s)
	}
}

func TestWindowFailsClearlyWithoutOpenGL41(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	// Mesa's override makes the driver offer OpenGL 3.3 only.
	cmd := exec.Command(bin, "-frames", "1")
	cmd.Env = append(os.Environ(), "MESA_GL_VERSION_OVERRIDE=3.3")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Skip("the driver ignores MESA_GL_VERSION_OVERRIDE (not Mesa)")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1\n%s", err, out)
	}
	if s := string(out); strings.Count(s, "\n") != 1 || !strings.Contains(s, "OpenGL 4.1") || strings.Count(s, "cube sim") != 1 {
		t.Errorf("want one line naming OpenGL 4.1 and suggesting cube sim, got %q", s)
	}
}

func TestScreenshotFlagIsCheckedBeforeTheWindowOpens(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "x.jpg"), "want a name ending in .png"},
		{filepath.Join(dir, "missing", "x.png"), "cannot create a file in folder"},
	} {
		// No display: the check must come first, or this would say "no display".
		code, _, errs := runCube("window", "-frames", "1", "-screenshot", c.path)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 2 {
			t.Errorf("-screenshot %s: exit %d, %q; want exit 2 and %q", c.path, code, errs, c.want)
		}
	}
}

func TestWindowHelpListsEveryFlagAndKey(t *testing.T) {
	code, _, errs := runCube("window", "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, f := range []string{"-scene", "-bodies", "-preset", "-snapshot-hz", "-seed", "-width", "-height", "-autopilot", "-paused", "-frames",
		"-screenshot", "-no-redundancy", "-no-corrections", "-no-smoothing", "-missing", "-start-tick", "-record", "-full-every", "-record-stages",
		"-inject-nondeterminism", "-report-dir", "-bots", "-connect", "-pin", "-insecure", "-max-players"} {
		if !strings.Contains(errs, "\n  "+f+" ") && !strings.Contains(errs, "\n  "+f+"\n") {
			t.Errorf("cube window -h lacks %s", f)
		}
	}
	for _, k := range lab.KeyHelp {
		if !strings.Contains(errs, k.Key) || !strings.Contains(errs, k.What) {
			t.Errorf("cube window -h lacks the key %s", k.Key)
		}
	}
}

func TestWindowDrawsTheCubesScene(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	count := func(scene string) int {
		img := shootWith(t, bin, "-scene", scene, "-paused", "-frames", "3")
		// The neutral bodies are warm (red over blue, little saturation);
		// the ground and the walls are cool greys, the sky blue.
		n := 0
		for y := 0; y < img.Bounds().Dy(); y++ {
			for x := 0; x < img.Bounds().Dx(); x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				r, g, b = r>>8, g>>8, b>>8
				if r > b+12 && g > b && r < g+40 && r > 60 {
					n++
				}
			}
		}
		return n
	}
	arena, cubes := count("arena"), count("cubes")
	t.Logf("body-coloured pixels: arena %d, cubes %d", arena, cubes)
	if cubes < 10000 || cubes < 10*arena {
		t.Errorf("%d pixels of the bodies' colour in the cubes scene, %d in the arena: the 900 cubes are not drawn", cubes, arena)
	}
}
