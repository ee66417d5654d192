package main

import (
	"os"
	"path/filepath"
	"strings"
)

// checkPlotPath refuses a -plot path that is not a .png in a folder that
// exists, before the run.
func checkPlotPath(path string) error {
	if path == "" {
		return nil
	}
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return usagef("-plot %s: the plot is a PNG, give a name ending in .png", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("-plot %s is a folder: want a file name ending in .png", path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return usagef("-plot %s: the folder %s does not exist", path, filepath.Dir(path))
	}
	if err := checkWritableDir(filepath.Dir(path)); err != nil {
		return usagef("-plot %s: %v", path, err)
	}
	return nil
}
