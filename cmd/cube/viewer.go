package main

import (
	"io"

	"github.com/cubelab/cube/internal/lab/window"
	"github.com/cubelab/cube/record"
)

// runViewer is `cube replay -window`: the record viewer.
func runViewer(name string, rec *record.Record, vf *viewerFlags, stdout, stderr io.Writer) error {
	cfg := window.Config{Title: "cube: record viewer, " + name, Width: vf.width, Height: vf.height, Frames: vf.frames, Screenshot: vf.screenshot, Stdout: stdout, Stderr: stderr}
	return windowError(window.Replay(name, rec, vf.keyList(), cfg), " for -window; rebuild with CGO_ENABLED=1, or run 'cube replay FILE' without -window for the text report")
}
