package window

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/session/recording"
	"github.com/cubelab/cube/ui/lab"
)

// Record writes the session record of the demo's in-process session l to
// path, with what o says (a full state every o.FullEvery ticks, stage
// hashes). The record ends at the
// lab's reset (a new session starts; the record says so on stdout) or
// when the caller calls end at the window's end ("record written to
// PATH"); an error closing it goes to stderr.
func Record(l *lab.Lab, path string, o recording.Options, stdout, stderr io.Writer) (end func(), err error) {
	rec, err := recording.Session(path, o, l.Session())
	if err != nil {
		return nil, err
	}
	l.OnReset = func() {
		if err := rec.Close(); err != nil {
			fmt.Fprintf(stderr, "cube: record %s: %v\n", path, err)
		}
		fmt.Fprintf(stdout, "record %s ended at the reset\n", path)
		rec, l.OnReset = nil, nil
	}
	return func() {
		if rec == nil {
			return // ended at a reset, and said so
		}
		if err := rec.Close(); err != nil {
			fmt.Fprintf(stderr, "cube: record %s: %v\n", path, err)
			return
		}
		fmt.Fprintf(stdout, "record written to %s\n", path)
	}, nil
}
