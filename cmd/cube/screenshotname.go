package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Screenshots are PNG files: -screenshot PATH for the last frame of a
// -frames run; F12's (internal/lab/window) go to the current folder.

// checkScreenshotPath refuses a -screenshot path that would not give a PNG
// file where the user asked for it: a name without the .png extension (the
// window writes PNG only, and PNG bytes in a .jpg file mislead every tool),
// an existing folder, or a folder that does not exist or cannot be written.
// It runs before the window opens, so that a long -frames run does not end
// without its picture.
func checkScreenshotPath(path string) error {
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return usagef("-screenshot %q: the picture is written as PNG: want a name ending in .png", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("-screenshot %s is a folder: want a file name ending in .png", path)
	}
	if err := checkWritableDir(filepath.Dir(path)); err != nil {
		return usagef("-screenshot %s: %v", path, err)
	}
	return nil
}

// checkWritableDir checks that a file can be created in dir by creating and
// removing one.
func checkWritableDir(dir string) error {
	f, err := os.CreateTemp(dir, ".cube-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create a file in folder %s: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
