package main

import (
	"encoding/json"
	"io"
)

// errWriter passes writes on and keeps the first error, so that a command
// whose output cannot be written (a full disk, a closed pipe) fails instead
// of exiting 0 with nothing written.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
