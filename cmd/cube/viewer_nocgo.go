//go:build !cgo

package main

import (
	"io"

	"github.com/cubelab/cube/record"
)

func runViewer(name string, rec *record.Record, vf *viewerFlags, stdout, stderr io.Writer) error {
	return exitError{code: 1, msg: "this binary was built without cgo, so it has no OpenGL window for -window; " +
		"rebuild with CGO_ENABLED=1, or run 'cube replay FILE' without -window for the text report"}
}
