//go:build cgo

package main

import "io"

func runWindow(args []string, stdout, stderr io.Writer) error {
	return exitError{code: 1, msg: "the window is not built yet; run 'cube sim'"}
}
