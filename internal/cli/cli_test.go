package cli

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseReportsInsteadOfExiting: -h prints the synopsis and the flags
// and returns flag.ErrHelp; a bad flag and a stray argument are usage
// errors; AllowArgs lets positional arguments through.
func TestParseReportsInsteadOfExiting(t *testing.T) {
	var help strings.Builder
	fs := NewFlags("demo", "demo [-n N] FILE", &help)
	fs.Int("n", 1, "how many")
	if err := fs.Parse([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	if !strings.HasPrefix(help.String(), "usage: cube demo [-n N] FILE\n") || !strings.Contains(help.String(), "how many") {
		t.Errorf("help %q", help.String())
	}
	var ue UsageError
	for _, args := range [][]string{{"-n", "x"}, {"-m"}, {"file"}} {
		fs := NewFlags("demo", "", &help)
		fs.Int("n", 1, "")
		if err := fs.Parse(args); !errors.As(err, &ue) || ue.Msg == "" {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	fs = NewFlags("demo", "", &help)
	fs.AllowArgs = 1
	if err := fs.Parse([]string{"file"}); err != nil || fs.Arg(0) != "file" {
		t.Errorf("one argument allowed: %v", err)
	}
}

// TestPathChecksSayWhatIsWrong: a folder given for a file, a file in a
// folder that does not exist, and a folder that is a file are usage
// errors that name the flag; a writable folder passes and is left as it
// was.
func TestPathChecksSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var ue UsageError
	for _, c := range []struct {
		err  error
		want string
	}{
		{CheckFile("-out", dir, "a file name"), "-out " + dir + " is a folder: want a file name"},
		{CheckFile("-out", filepath.Join(dir, "no", "x"), "a file name"), "the folder " + filepath.Join(dir, "no") + " does not exist"},
		{CheckDir("-dir", file), "-dir " + file + " is not a folder"},
		{CheckDir("-dir", filepath.Join(dir, "no")), "-dir " + filepath.Join(dir, "no") + ": "},
	} {
		if !errors.As(c.err, &ue) || !strings.Contains(ue.Msg, c.want) {
			t.Errorf("%v, want a usage error with %q", c.err, c.want)
		}
	}
	if err := CheckFile("-out", filepath.Join(dir, "x.png"), "a file name"); err != nil {
		t.Errorf("a new file in a writable folder: %v", err)
	}
	if err := CheckDir("-dir", dir); err != nil || CheckDir("-dir", "") != nil {
		t.Errorf("a writable folder: %v", err)
	}
	if err := CheckWritableDir(file); err == nil || !strings.Contains(err.Error(), "cannot create a file in folder") {
		t.Errorf("a file as a folder: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("the checks left %d entries, want the test's one file", len(left))
	}
}

// TestBadValuesSayWhatTheFlagWants: a value the flag package cannot parse
// is reported with the flag, the value and what the flag's type wants,
// not the package's bare "parse error".
func TestBadValuesSayWhatTheFlagWants(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-seconds", "abc"}, `-seconds "abc": want a number`},
		{[]string{"-n", "1.5"}, `-n "1.5": want a whole number`},
		{[]string{"-seed", "-1"}, `-seed "-1": want a whole number`},
		{[]string{"-n", "99999999999999999999"}, `-n "99999999999999999999" is out of range: want a whole number`},
		{[]string{"-quantize=maybe"}, `-quantize "maybe": want true or false`},
		{[]string{"-every", "3"}, `-every "3": want a duration such as 1.5s or 200ms`},
	} {
		fs := NewFlags("demo", "", &strings.Builder{})
		fs.Float64("seconds", 1, "")
		fs.Int("n", 1, "")
		fs.Uint64("seed", 1, "")
		fs.Bool("quantize", false, "")
		fs.Duration("every", 0, "")
		var ue UsageError
		if err := fs.Parse(c.args); !errors.As(err, &ue) || ue.Msg != c.want {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
