package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/internal/cli"
)

func TestScreenshotPathIsCheckedBeforeTheWindowOpens(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "a.jpg"), "want a name ending in .png"},
		{filepath.Join(dir, "a.jpeg"), "want a name ending in .png"},
		{filepath.Join(dir, "a"), "want a name ending in .png"},
		{filepath.Join(dir, "missing", "a.png"), "cannot create a file in folder"},
		{filepath.Join(file, "a.png"), "cannot create a file in folder"},
	} {
		err := checkScreenshotPath(c.path)
		var ue cli.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a usage error with %q", c.path, err, c.want)
		}
	}
	png := filepath.Join(dir, "sub.png")
	if err := os.Mkdir(png, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := checkScreenshotPath(png); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("a folder named .png: %v", err)
	}
	for _, ok := range []string{filepath.Join(dir, "shot.png"), filepath.Join(dir, "SHOT.PNG")} {
		if err := checkScreenshotPath(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// The check leaves nothing behind.
	left, _ := os.ReadDir(dir)
	if len(left) != 2 {
		t.Errorf("folder holds %d entries after the checks, want the 2 made by the test", len(left))
	}
}
