package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/record"
)

// perturbFlags are cube replay's flags for a divergence on purpose.
type perturbFlags struct {
	spec, out string
}

func (p *perturbFlags) register(fs *cli.Flags) {
	fs.StringVar(&p.spec, "perturb", "", "write a copy of the record with one value changed, to see a divergence: TICK:BODY:FIELD[:ULPS] (FIELD pos.x ... torque.z), TICK:contact:N:FIELD[:ULPS] (the state's Nth contact; pn, pt1 or pt2) or TICK:input:PLAYER:BITS (0 to 63); needs -o")
	fs.StringVar(&p.out, "o", "", "with -perturb or -trace: the file to write, which must not exist")
}

// check validates the flags against the viewer's: a copy is written
// instead of replaying.
func (p *perturbFlags) check(window bool) (record.Perturbation, error) {
	switch {
	case p.spec == "" && p.out == "":
		return record.Perturbation{}, nil
	case p.spec == "":
		return record.Perturbation{}, cli.Usagef("-o is the file -perturb or -trace writes: add one of them")
	case p.out == "":
		return record.Perturbation{}, cli.Usagef("-perturb needs -o FILE, the copy to write")
	case window:
		return record.Perturbation{}, cli.Usagef("-perturb writes a copy and opens no window: replay the copy with -window")
	}
	pt, err := record.ParsePerturbation(p.spec)
	if err != nil {
		return pt, cli.Usagef("%v", err)
	}
	return pt, nil
}

// writePerturbed writes the copy of rec (read from name) with pt to path,
// never over an existing file, and says what changed.
func writePerturbed(name, path string, rec *record.Record, pt record.Perturbation, stdout io.Writer) error {
	f, err := createNew(path, "copy")
	if err != nil {
		return err
	}
	ch, err := record.Perturb(rec, pt, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return exitError{code: 2, msg: fmt.Sprintf("%s: %s", name, err)}
	}
	what := fmt.Sprintf("%#02x to %#02x", ch.Before, ch.After)
	if ch.Float {
		what = fmt.Sprintf("%.17g (%#016x) to %.17g (%#016x)", math.Float64frombits(ch.Before), ch.Before, math.Float64frombits(ch.After), ch.After)
	}
	fmt.Fprintf(stdout, "wrote %s: %s with %s changed from %s\n", path, name, ch.Where, what)
	fmt.Fprintf(stdout, "cube replay %s names the divergence; cube replay -window %s shows it\n", path, path)
	return nil
}

// createNew creates path for -o, never over an existing file; what names
// what goes in it, for the message.
func createNew(path, what string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, exitError{code: 2, msg: fmt.Sprintf("-o %s exists; the %s goes to a new file", path, what)}
		}
		return nil, exitError{code: 2, msg: fmt.Sprintf("-o: cannot create %s: %v", path, errors.Unwrap(err))}
	}
	return f, nil
}
