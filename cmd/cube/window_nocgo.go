//go:build !cgo

package main

import "io"

func runWindow(args []string, stdout, stderr io.Writer) error {
	return exitError{code: 1, msg: "this binary was built without cgo, so it has no OpenGL window; " +
		"rebuild with CGO_ENABLED=1, or run 'cube sim' for a headless session"}
}
