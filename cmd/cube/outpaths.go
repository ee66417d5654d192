package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cubelab/cube/internal/cli"
)

// The files and folders a run will write, checked before it starts, so
// that a long run does not end without its output: a usage error (exit 2)
// says what is wrong. Screenshots are PNG files: -screenshot PATH for the
// last frame of a -frames run; F12's (ui/window) go to the
// current folder.

// checkScreenshotPath refuses a -screenshot path that would not give a PNG
// file where the user asked for it: a name without the .png extension (the
// window writes PNG only, and PNG bytes in a .jpg file mislead every tool),
// an existing folder, or a folder that does not exist or cannot be written.
// It runs before the window opens, so that a long -frames run does not end
// without its picture.
func checkScreenshotPath(path string) error {
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return cli.Usagef("-screenshot %q: the picture is written as PNG: want a name ending in .png", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return cli.Usagef("-screenshot %s is a folder: want a file name ending in .png", path)
	}
	if err := cli.CheckWritableDir(filepath.Dir(path)); err != nil {
		return cli.Usagef("-screenshot %s: %v", path, err)
	}
	return nil
}

// checkPlotPath refuses a -plot path that is not a .png in a folder that
// exists, before the run.
func checkPlotPath(path string) error {
	if path == "" {
		return nil
	}
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return cli.Usagef("-plot %s: the plot is a PNG, give a name ending in .png", path)
	}
	return cli.CheckFile("-plot", path, "a file name ending in .png")
}
