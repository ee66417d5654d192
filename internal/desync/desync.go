// Package desync reports the first nondeterminism a client finds: its
// states field by field in a new file (cube-desync-tickT.txt, never over
// an earlier one), and a line that names the file.
package desync

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// Watch makes c keep its states for the report and report its first
// nondeterminism (of kind rewind too, with the sync test) with Report to
// stderr and a file in dir, as cube sim, cube client and the window do;
// when every is not 0, it also moves c's cube by one ulp every that many
// ticks to prove the detector.
func Watch(c *predict.Client, every uint32, stderr io.Writer, dir string) {
	if every > 0 {
		c.Perturb = session.InjectNondeterminism(every)
	}
	c.KeepStates = true
	found := false
	c.OnMispredict = func(m *predict.Misprediction) {
		if (m.Kind == predict.KindNondeterminism || m.Kind == predict.KindRewind) && !found {
			found = true
			Report(stderr, stderr, dir, m)
		}
	}
}

// Report writes the first nondeterminism's states field by field to a
// file, prints its path and returns it; "" when it could not be written.
func Report(stdout, stderr io.Writer, dir string, m *predict.Misprediction) string {
	path, err := write(dir, m)
	if err != nil {
		fmt.Fprintf(stderr, "cube: nondeterminism at tick %d, but the report could not be written: %v\n", m.Tick, err)
		return ""
	}
	fmt.Fprintf(stdout, "nondeterminism at tick %d: report written to %s\n", m.Tick, path)
	return path
}

// maxReportsPerTick bounds the names write tries for one tick.
const maxReportsPerTick = 100

// createReport creates a new report file for tick t in dir, never over an
// earlier one: cube-desync-tickT.txt, else cube-desync-tickT-2.txt and on.
func createReport(dir string, t uint32) (*os.File, error) {
	for k := 1; ; k++ {
		name := fmt.Sprintf("cube-desync-tick%d.txt", t)
		if k > 1 {
			name = fmt.Sprintf("cube-desync-tick%d-%d.txt", t, k)
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) && k < maxReportsPerTick {
			continue
		}
		return f, err
	}
}

// write writes the report of misprediction m to a new file in dir
// and returns its path.
func write(dir string, m *predict.Misprediction) (string, error) {
	f, err := createReport(dir, m.Tick)
	if err != nil {
		return "", err
	}
	if err := writeTo(f, m); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// writeTo writes the report of m to f and closes f.
func writeTo(f *os.File, m *predict.Misprediction) error {
	first, second := "client", "server"
	if m.Kind == predict.KindRewind {
		first, second = "predicted", "replayed"
		fmt.Fprintf(f, "nondeterminism of kind rewind: the sync test replayed ticks %d to %d and got other bits than predicting them\n", m.From, m.Tick)
		fmt.Fprintf(f, "both ran from the same state at tick %d with the same inputs: the rewind did not bring back all the state that evolves, or a partial replay left out a body it reaches\n", m.From)
	} else {
		fmt.Fprintf(f, "nondeterminism: the client's prediction of tick %d differs from the server's state\n", m.Tick)
		fmt.Fprintf(f, "both started from the same state at tick %d and applied the same inputs (the input chains match)\n", m.From)
	}
	if m.Predicted != nil && m.Server != nil {
		d := physics.Diff(m.Predicted, m.Server, 0)
		fmt.Fprintf(f, "%d fields differ (%s value first, then %s):\n", len(d), first, second)
		for _, x := range d {
			fmt.Fprintf(f, "  %s\n", x)
		}
	}
	return f.Close()
}
