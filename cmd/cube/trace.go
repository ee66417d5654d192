package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// traceFlags are cube replay's flags for stage traces.
type traceFlags struct {
	tick string
	diff bool
}

func (t *traceFlags) register(fs *cli.Flags) {
	fs.StringVar(&t.tick, "trace", "", "write the stage trace of tick TICK to -o: every stage of that step with a hash and the values it changed, to compare with another machine's (-diff-trace)")
	fs.BoolVar(&t.diff, "diff-trace", false, "compare two stage traces, cube replay -diff-trace A B: the first stage that differs, its first differing value, and how many differ; exit 1 when they differ")
}

// writeTrace writes the stage trace of tick of rec (read from name) to
// path, never over an existing file.
func writeTrace(name, path, tick string, rec *record.Record, stdout io.Writer) error {
	t, err := strconv.ParseUint(tick, 10, 32)
	if err != nil {
		return cli.Usagef("-trace %q: want a tick, 0 to 4294967295", tick)
	}
	tr, err := record.TraceTick(rec, uint32(t))
	if err != nil {
		return exitError{code: 2, msg: fmt.Sprintf("%s: %v", name, err)}
	}
	f, err := createNew(path, "trace")
	if err != nil {
		return err
	}
	err = record.WriteStageTrace(f, tr)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return exitError{code: 2, msg: fmt.Sprintf("-o %s: %v", path, err)}
	}
	items := 0
	for _, s := range tr.Stages {
		items += len(s.Items)
	}
	size := int64(0)
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(stdout, "wrote %s: the stage trace of tick %d of %s, %d stages, %d values, %d bytes\n", path, tr.Tick, name, len(tr.Stages), items, size)
	fmt.Fprintf(stdout, "compare it with another machine's trace of the same tick: cube replay -diff-trace %s OTHER\n", path)
	return nil
}

// diffTraces is cube replay -diff-trace A B.
func diffTraces(a, b string, stdout io.Writer) error {
	read := func(path string) (*physics.StageTrace, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, exitError{code: 2, msg: err.Error()}
		}
		defer f.Close()
		tr, err := record.ReadStageTrace(f)
		if err != nil {
			return nil, exitError{code: 2, msg: fmt.Sprintf("%s: %v", path, err)}
		}
		return tr, nil
	}
	ta, err := read(a)
	if err != nil {
		return err
	}
	tb, err := read(b)
	if err != nil {
		return err
	}
	d := physics.DiffTraces(ta, tb)
	fmt.Fprintf(stdout, "tick %d, %s against %s\n%s\n", ta.Tick, a, b, d)
	switch {
	case d.Why != "":
		return exitError{code: 2}
	case !d.Same:
		return exitError{code: 1}
	}
	return nil
}
