package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"time"
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
		return UsageError{f.explain(err.Error())}
	}
	if f.NArg() > f.AllowArgs {
		return Usagef("unexpected argument %q", f.Arg(f.AllowArgs))
	}
	return nil
}

// badValue and badBool match the flag package's messages for a value it
// cannot parse: `invalid value "abc" for flag -seconds: parse error`,
// `invalid boolean value "maybe" for -quantize: parse error`.
var (
	badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): (parse error|value out of range)$`)
	badBool  = regexp.MustCompile(`^invalid boolean value "(.*)" for -([^:]+): parse error$`)
)

// explain rewrites the flag package's bare "parse error" and "value out of
// range" into what the flag wants, from its default's type.
func (f *Flags) explain(msg string) string {
	if m := badBool.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("-%s %q: want true or false", m[2], m[1])
	}
	m := badValue.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	fl := f.Lookup(m[2])
	if fl == nil {
		return msg
	}
	g, ok := fl.Value.(flag.Getter)
	if !ok {
		return msg
	}
	var want string
	switch g.Get().(type) {
	case bool:
		want = "want true or false"
	case int, int64, uint, uint64:
		want = "want a whole number"
	case float64:
		want = "want a number"
	case time.Duration:
		want = "want a duration such as 1.5s or 200ms"
	default:
		return msg
	}
	if m[3] == "value out of range" {
		return fmt.Sprintf("-%s %q is out of range: %s", m[2], m[1], want)
	}
	return fmt.Sprintf("-%s %q: %s", m[2], m[1], want)
}
