package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The files and folders a run will write, checked before it starts, so
// that a long run does not end without its output: a usage error (exit 2)
// says what is wrong. Screenshots are PNG files: -screenshot PATH for the
// last frame of a -frames run; F12's (internal/lab/window) go to the
// current folder.

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

// checkPlotPath refuses a -plot path that is not a .png in a folder that
// exists, before the run.
func checkPlotPath(path string) error {
	if path == "" {
		return nil
	}
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return usagef("-plot %s: the plot is a PNG, give a name ending in .png", path)
	}
	return checkOutFile("-plot", path, "a file name ending in .png")
}

// checkReportDir refuses a -report-dir that is not a folder this program
// can write to, before a run that may need it starts. The default, "" (the
// current folder), is not checked: a run in a read-only folder needs no
// report, and one that does says on stderr that it could not write it.
func checkReportDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return usagef("-report-dir %s: %v", dir, err)
	}
	if !fi.IsDir() {
		return usagef("-report-dir %s is not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".cube-write-check-*")
	if err != nil {
		return usagef("-report-dir %s cannot be written: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("-report-dir %s: removing the write check: %w", dir, err)
	}
	return nil
}

// checkOutFile refuses, for flag, an output file path that is a folder
// (want says what to give instead), or whose folder does not exist or
// cannot be written.
func checkOutFile(flag, path, want string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("%s %s is a folder: want %s", flag, path, want)
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef("%s %s: the folder %s does not exist", flag, path, dir)
	}
	if err := checkWritableDir(dir); err != nil {
		return usagef("%s %s: %v", flag, path, err)
	}
	return nil
}
