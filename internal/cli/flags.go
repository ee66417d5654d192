package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Flags is a subcommand's flag set: it reports errors instead of exiting.
type Flags struct {
	*flag.FlagSet
	synopsis  string
	stderr    io.Writer
	AllowArgs int    // positional arguments allowed after the flags
	Footer    string // printed after the flags by -h (exit codes, examples)
}

// NewFlags returns the flag set of subcommand name ("cube name"), whose
// usage line is synopsis, printed on stderr with -h.
func NewFlags(name, synopsis string, stderr io.Writer) *Flags {
	fs := flag.NewFlagSet("cube "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by the caller
	fs.Usage = func() {}
	return &Flags{FlagSet: fs, synopsis: synopsis, stderr: stderr}
}

// Parse parses args. -h prints the usage and returns flag.ErrHelp; a bad flag
// or a stray argument is a usage error.
func (f *Flags) Parse(args []string) error {
	err := f.FlagSet.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(f.stderr, "usage: cube %s\n", f.synopsis)
		f.SetOutput(f.stderr)
		f.PrintDefaults()
		if f.Footer != "" {
			fmt.Fprint(f.stderr, f.Footer)
		}
		return err
	}
	if err != nil {
		return UsageError{err.Error()}
	}
	if f.NArg() > f.AllowArgs {
		return Usagef("unexpected argument %q", f.Arg(f.AllowArgs))
	}
	return nil
}
