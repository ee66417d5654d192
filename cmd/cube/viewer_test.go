//go:build cgo

package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// readRecordFile reads the record at path.
func readRecordFile(t *testing.T, path string) *record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.Read(f, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// writeRecordFile writes rec to path as a Writer would have written it,
// storing a full state where rec has one.
func writeRecordFile(t *testing.T, rec *record.Record, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := record.NewWriter(f, rec.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Len() {
		s := rec.Step(i)
		if s.Kind == record.StepSkip {
			err = w.Skip(s.Tick, s.To)
		} else {
			for _, e := range s.Events {
				if err = w.Event(s.Tick, e); err != nil {
					break
				}
			}
			if err == nil {
				err = w.Tick(s.Tick, s.Inputs, s.Hash, s.Full)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// damageState moves the player's cube 1.2 m along x in the full state the
// record stores after the k-th keyframe, with the hash recorded for it to
// match, as a server whose world left the inputs' path would have
// written it. It returns the damaged record (rec is left as it was) and
// the damaged state's tick.
func damageState(t *testing.T, rec *record.Record, k int) (*record.Record, uint32) {
	t.Helper()
	steps := rec.Unpack()
	n := 0
	for i := range steps {
		s := &steps[i]
		if s.Full == nil {
			continue
		}
		if n++; n < k {
			continue
		}
		var st physics.State
		st.CopyFrom(s.Full)
		st.Bodies[0].Pos.X += 1.2
		s.Full, s.Hash = &st, st.Hash()
		return record.NewRecord(rec.Header, steps), st.Tick
	}
	t.Fatalf("the record has fewer than %d full states", k)
	return nil, 0
}

// viewerShot runs cube replay -window on rec with args, -frames and
// -screenshot, and returns the picture and the output. With
// CUBE_VIEWER_SHOTS set to a folder, the picture is copied there as name.
func viewerShot(t *testing.T, bin, rec, name string, wantCode int, args ...string) (image.Image, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	all := append([]string{"replay", "-window", "-screenshot", path}, args...)
	cmd := exec.Command(bin, append(all, rec)...)
	out, err := cmd.CombinedOutput()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != wantCode {
		t.Fatalf("cube %s: exit %d, want %d\n%s", strings.Join(all, " "), code, wantCode, out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if dir := os.Getenv("CUBE_VIEWER_SHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return img, string(out)
}

// countColor counts the pixels near c (within tol on every channel).
func countColor(img image.Image, c [3]float64, tol float64) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl := rgb8(img, x, y)
			if abs(r-c[0]) <= tol && abs(g-c[1]) <= tol && abs(bl-c[2]) <= tol {
				n++
			}
		}
	}
	return n
}

func rgb8(img image.Image, x, y int) (float64, float64, float64) {
	r, g, b, _ := img.At(x, y).RGBA()
	return float64(r >> 8), float64(g >> 8), float64(b >> 8)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// The viewer plays a clean record, steps and seeks by keys, and says at the
// end that every tick re-simulates alike; at 1280x720 and 640x360.
func TestViewerCleanRecord(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	rec := filepath.Join(t.TempDir(), "clean.rec")
	if code, _, errs := runCube("sim", "-preset", "bad", "-seconds", "6", "-nudge-every", "2", "-record", rec); code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	for _, size := range [][2]string{{"1280", "720"}, {"640", "360"}} {
		img, out := viewerShot(t, bin, rec, "viewer-clean-"+size[0]+".png", 0,
			"-width", size[0], "-height", size[1], "-frames", "12", "-keys", "Up,Up,Right,Right,Left,F1")
		if !strings.Contains(out, "ok: every tick of the record re-simulates alike") || !strings.Contains(out, ", step 129 of ") {
			t.Fatalf("%sx%s: %s", size[0], size[1], out)
		}
		if s := img.Bounds().Size(); s.X != atoi(t, size[0]) || s.Y != atoi(t, size[1]) {
			t.Fatalf("screenshot %v", s)
		}
		// The timeline's handle (white) and its checked track (green) are
		// drawn along the bottom.
		bottom := img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(0, img.Bounds().Dy()*8/10, img.Bounds().Dx(), img.Bounds().Dy()))
		if n := countColor(bottom, [3]float64{247, 247, 255}, 12); n < 20 {
			t.Errorf("%sx%s: the timeline's handle: %d white pixels", size[0], size[1], n)
		}
		if n := countColor(bottom, [3]float64{0.28 * 255, 0.42 * 255, 0.32 * 255}, 30); n < 200 {
			t.Errorf("%sx%s: the checked track: %d green pixels", size[0], size[1], n)
		}
	}
}

// Space plays the record: some ticks go by, not all of them.
func TestViewerPlays(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	rec := filepath.Join(t.TempDir(), "clean.rec")
	if code, _, errs := runCube("sim", "-seconds", "20", "-record", rec); code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	if step, n := viewerStep(t, bin, rec, "Space,],]", 40); step <= 0 || step >= n {
		t.Fatalf("after 40 frames playing at 4x: step %d of %d", step, n)
	}
}

// viewerStep runs the viewer on rec with -keys keys for frames frames and
// returns the step it closed at, and the record's steps.
func viewerStep(t *testing.T, bin, rec, keys string, frames int) (int, int) {
	t.Helper()
	out, err := exec.Command(bin, "replay", "-window", "-width", "640", "-height", "360", "-frames", fmt.Sprint(frames), "-keys", keys, rec).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var tick, step, n int
	i := strings.Index(string(out), "the viewer closed at")
	if i < 0 {
		t.Fatalf("%s", out)
	}
	if _, err := fmt.Sscanf(string(out[i:]), "the viewer closed at tick %d, step %d of %d", &tick, &step, &n); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return step, n
}

// A click on the timeline seeks there; a drag shows the stored state at
// the keyframe before the cursor while it moves, and the exact tick once
// it rests or the button is let go.
func TestViewerTimelineDrag(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	rec := filepath.Join(t.TempDir(), "clean.rec")
	if code, _, errs := runCube("sim", "-seconds", "10", "-record", rec); code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	for _, c := range []struct {
		keys   string
		frames int
		at     float64 // fraction of the record
		near   bool    // a keyframe at or before it, within 64 ticks
	}{
		{"-,drag@0.5,-", 4, 0.5, false},                    // a click
		{"-,drag@0.25,drag@1,drag@0.999", 5, 0.999, false}, // dragged, resting at the end
		{"-,drag@0.3,drag@0.6", 3, 0.6, true},              // still moving at the last frame
		{"-,drag@0.2,drag@0.6,drag@0.6,-", 6, 0.6, false},  // rests, then let go
	} {
		step, n := viewerStep(t, bin, rec, c.keys, c.frames)
		want := int(c.at*float64(n) + 0.5)
		if c.near && (step > want || step <= want-64) || !c.near && step != want {
			t.Errorf("-keys %s: step %d of %d, want %d (near: %v)", c.keys, step, n, want, c.near)
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// At a record whose stored state was damaged by hand, D goes to the
// divergence: the re-simulated cube in magenta, the recorded one as a cyan
// ghost 1.2 m away, the banner, and R shows the field report; the viewer
// prints cube replay's report and exits 1.
func TestViewerDivergence(t *testing.T) {
	needDisplay(t)
	bin := buildCube(t)
	dir := t.TempDir()
	clean := filepath.Join(dir, "clean.rec")
	if code, _, errs := runCube("sim", "-scene", "cubes", "-preset", "perfect", "-seconds", "10", "-record", clean); code != 0 {
		t.Fatalf("sim: %s", errs)
	}
	rec := readRecordFile(t, clean)
	rec, tick := damageState(t, rec, 8)
	bad := filepath.Join(dir, "damaged.rec")
	writeRecordFile(t, rec, bad)
	_, want, _ := runCube("replay", bad)
	if !strings.Contains(want, "diverged at tick") {
		t.Fatalf("replay of the damaged record: %q", want)
	}
	for _, size := range [][2]string{{"1280", "720"}, {"640", "360"}} {
		img, out := viewerShot(t, bin, bad, "viewer-divergence-"+size[0]+".png", 1,
			"-width", size[0], "-height", size[1], "-frames", "8", "-keys", "D")
		if !strings.Contains(out, want) {
			t.Fatalf("%sx%s: the viewer's report:\n%s\nwant cube replay's:\n%s", size[0], size[1], out, want)
		}
		// The differing cube is magenta, its recorded state a cyan ghost,
		// the banner red.
		magenta := countColor(img, [3]float64{255, 38, 191}, 90)
		if magenta < 50 {
			t.Errorf("%sx%s: %d magenta pixels: the differing cube is not highlighted", size[0], size[1], magenta)
		}
		if n := countColor(img, [3]float64{51, 230, 255}, 60); n < 20 {
			t.Errorf("%sx%s: %d cyan pixels: no ghost of the recorded cube", size[0], size[1], n)
		}
		if n := countColor(img, [3]float64{255, 56, 46}, 40); n < 50 {
			t.Errorf("%sx%s: %d banner-red pixels", size[0], size[1], n)
		}
		// R shows the field report, naming the damaged field, beside the
		// magenta cube it describes: the cube keeps its pixels.
		img, _ = viewerShot(t, bin, bad, "viewer-report-"+size[0]+".png", 1,
			"-width", size[0], "-height", size[1], "-frames", "8", "-keys", "D,R")
		if n := countColor(img, [3]float64{255, 38, 191}, 90); n < magenta*9/10 {
			t.Errorf("%sx%s: %d magenta pixels with the field report shown, %d without: the report covers the cube", size[0], size[1], n, magenta)
		} else {
			t.Logf("%sx%s: %d magenta pixels with the field report shown, %d without", size[0], size[1], n, magenta)
		}
	}
	if !strings.Contains(want, "body 0 pos.x") || !strings.Contains(want, fmt.Sprintf("diverged at tick %d", tick)) {
		t.Fatalf("the report does not name the damaged tick %d and field: %s", tick, want)
	}
}

// The viewer plays the records cube server (players joining at different
// ticks, skips while nobody plays) and the window write, to the end, and
// finds every tick alike.
func TestViewerServerAndWindowRecords(t *testing.T) {
	needDisplay(t)
	if testing.Short() {
		t.Skip("real time")
	}
	bin := buildCube(t)
	dir := t.TempDir()
	netRec := filepath.Join(dir, "net.rec")
	srv := startServer(t, "-record", netRec, "-full-every", "16", "-json")
	results := make(chan clientResult, 2)
	for i := 0; i < 2; i++ {
		go func() {
			time.Sleep(time.Duration(i) * 600 * time.Millisecond)
			results <- runTestClient(srv, "-preset", "lan", "-seconds", "2", "-seed", fmt.Sprint(i+1))
		}()
	}
	for i := 0; i < 2; i++ {
		r := <-results
		r.check(t, "client")
	}
	srv.stop(t)
	winRec := filepath.Join(dir, "window.rec")
	if out, err := exec.Command(bin, "-autopilot", "-frames", "90", "-width", "320", "-height", "180", "-record", winRec).CombinedOutput(); err != nil {
		t.Fatalf("window -record: %v\n%s", err, out)
	}
	for _, rec := range []string{netRec, winRec} {
		step, n := viewerStep(t, bin, rec, "End,Left,Left,Right", 6)
		if n == 0 || step != n-1 {
			t.Errorf("%s: step %d of %d, want %d", filepath.Base(rec), step, n, n-1)
		}
		out, err := exec.Command(bin, "replay", "-window", "-width", "320", "-height", "180", "-frames", "3", "-keys", "End", rec).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "ok: every tick of the record re-simulates alike") {
			t.Errorf("%s: %v\n%s", filepath.Base(rec), err, out)
		}
	}
}
