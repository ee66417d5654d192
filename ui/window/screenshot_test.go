package window

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTwoScreenshotsInOneSecondGetTwoFiles(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 3, 4, 5, 6, 7, 8e6, time.UTC)
	if got := screenshotName(now, 1); got != "cube-20260304-050607-008.png" {
		t.Errorf("name %q", got)
	}
	var out, errb bytes.Buffer
	s := shooter{dir: dir, stdout: &out, stderr: &errb}
	write := func(tag string) func(string) error {
		return func(p string) error { return os.WriteFile(p, []byte(tag), 0o644) }
	}
	// The same millisecond twice, and the next millisecond of that second.
	s.take(now, write("first"))
	s.take(now, write("second"))
	s.take(now.Add(time.Millisecond), write("third"))
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Fatalf("%d files, want 3: %v", len(entries), entries)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		seen[string(b)] = true
		if !strings.HasPrefix(e.Name(), "cube-20260304-050607-00") || !strings.HasSuffix(e.Name(), ".png") {
			t.Errorf("file name %q", e.Name())
		}
	}
	if !seen["first"] || !seen["second"] || !seen["third"] {
		t.Errorf("a screenshot overwrote another: contents %v", seen)
	}
	if strings.Count(out.String(), "screenshot written to") != 3 || errb.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), errb.String())
	}
}

func TestScreenshotInAFolderThatCannotBeWrittenIsAMessage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "not-a-folder")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	s := shooter{dir: file, stdout: &out, stderr: &errb}
	called := false
	msg := s.take(time.Now(), func(string) error { called = true; return nil })
	if called || !strings.HasPrefix(msg, "screenshot not written") || !strings.Contains(errb.String(), "screenshot not written") || !strings.Contains(msg, "in folder "+file) {
		t.Errorf("write called %v, message %q, stderr %q", called, msg, errb.String())
	}
	// A write that fails (e.g. the disk is full) leaves no empty file.
	s.dir = dir
	msg = s.take(time.Now(), func(string) error { return errors.New("disk full") })
	if !strings.Contains(msg, "disk full") {
		t.Errorf("message %q", msg)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries, want only the test's file: a failed screenshot left a file", len(entries))
	}
}

// TestErrorsSayWhatWentWrongInOneLine: a window that could not open names
// the cause on one line and the headless way out; a record that cannot be
// replayed names the file and the reason without the package's prefix.
func TestErrorsSayWhatWentWrongInOneLine(t *testing.T) {
	open := &OpenError{Err: errors.New("render: no display:\n  DISPLAY is not set")}
	if got, want := open.Error(), "no display:; DISPLAY is not set; 'cube sim' runs the same session headless"; got != want {
		t.Errorf("open error %q, want %q", got, want)
	}
	viewer := &OpenError{Err: errors.New("render: no display"), Record: "s.rec"}
	if got, want := viewer.Error(), "no display; 'cube replay s.rec' checks the record headless"; got != want {
		t.Errorf("viewer's open error %q, want %q", got, want)
	}
	rep := &ReplayError{Name: "r.rec", Err: errors.New("record: replay: scene arena: unknown")}
	if got, want := rep.Error(), "r.rec cannot be replayed here: scene arena: unknown"; got != want {
		t.Errorf("replay error %q, want %q", got, want)
	}
	if !errors.Is(open, open.Err) || !errors.Is(rep, rep.Err) {
		t.Error("the errors do not unwrap to their reasons")
	}
}
