package window

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// F12 writes a picture of the current frame at any time, under a new name
// in the current folder, never over an existing file.

// screenshotName returns the F12 file name for time t:
// cube-YYYYMMDD-HHMMSS-mmm.png, with -2, -3, ... before the extension for
// the n-th try when the name is taken.
func screenshotName(t time.Time, n int) string {
	base := "cube-" + t.Format("20060102-150405.000")
	base = strings.Replace(base, ".", "-", 1)
	if n > 1 {
		base += fmt.Sprintf("-%d", n)
	}
	return base + ".png"
}

// maxShotTries bounds the suffixes tried for a taken screenshot name.
const maxShotTries = 100

// reserveScreenshot creates an empty file with a new screenshot name for t
// in dir and returns its path. It never overwrites: a name that exists
// (two presses in the same millisecond, or a file left by another run) is
// skipped for the next suffix.
func reserveScreenshot(dir string, t time.Time) (string, error) {
	for n := 1; n <= maxShotTries; n++ {
		path := filepath.Join(dir, screenshotName(t, n))
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return path, f.Close()
	}
	return "", fmt.Errorf("%s and %d more names for that time are taken", screenshotName(t, 1), maxShotTries-1)
}

// shooter takes F12 screenshots: a failure is reported and the demo goes on.
type shooter struct {
	dir            string // where the pictures go
	stdout, stderr io.Writer
}

// take writes a screenshot with write (the window's) under a new name in
// s.dir and returns a short message for the HUD. It never fails the caller:
// a folder that cannot be written is an error message, not the end of the
// demo.
func (s shooter) take(now time.Time, write func(path string) error) string {
	path, err := reserveScreenshot(s.dir, now)
	if err != nil {
		dir, aerr := filepath.Abs(s.dir)
		if aerr != nil {
			dir = s.dir
		}
		err = fmt.Errorf("%v (in folder %s)", err, dir)
	} else {
		if err = write(path); err != nil {
			os.Remove(path) // the empty or partial file
		}
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "cube: screenshot not written: %v\n", err)
		return fmt.Sprintf("screenshot not written:  %v", err) // two spaces: the HUD may wrap there
	}
	fmt.Fprintf(s.stdout, "screenshot written to %s\n", path)
	return "screenshot written to  " + path
}
