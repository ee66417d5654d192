package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSimExitCodes: cube sim exits 0 in sync, 1 NOT IN SYNC (corrections
// off and the server nudging: the client never takes its state), 3 when
// nondeterminism was found (the client's cube moved an ulp behind the
// server's back), 0 with -allow-desync for both; the readable summary's
// last line is the verdict with its exit code, and the JSON says it.
func TestSimExitCodes(t *testing.T) {
	for _, c := range []struct {
		args    []string
		code    int
		verdict string
	}{
		{[]string{"-seconds", "1"}, 0, "in_sync"},
		{[]string{"-seconds", "2", "-no-corrections", "-nudge-every", "0.5"}, 1, "not_in_sync"},
		{[]string{"-seconds", "2", "-no-corrections", "-nudge-every", "0.5", "-allow-desync"}, 0, "not_in_sync"},
		{[]string{"-seconds", "1", "-inject-nondeterminism", "20", "-report-dir", t.TempDir()}, 3, "nondeterminism"},
		{[]string{"-seconds", "1", "-inject-nondeterminism", "20", "-report-dir", t.TempDir(), "-allow-desync"}, 0, "nondeterminism"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"sim"}, c.args...), &out, &errb)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		last := lines[len(lines)-1]
		if code != c.code || !strings.HasPrefix(last, "verdict") || !strings.Contains(last, strings.ToUpper(strings.ReplaceAll(c.verdict, "_", " "))) {
			t.Errorf("%v: exit %d, want %d; last line %q", c.args, code, c.code, last)
		}
		out.Reset()
		code = run(append([]string{"sim", "-json"}, c.args...), &out, &errb)
		var sum struct{ Verdict string }
		if err := json.Unmarshal(out.Bytes(), &sum); err != nil || sum.Verdict != c.verdict || code != c.code {
			t.Errorf("%v -json: exit %d, verdict %q (%v), want %d, %q", c.args, code, sum.Verdict, err, c.code, c.verdict)
		}
	}
}

// TestHelpCommand: cube help sim prints sim's flags and exit codes on
// stdout, and exits 0; cube help alone lists the commands, and so does
// cube -h after the window's flags and keys.
func TestHelpCommand(t *testing.T) {
	if code, _, errs := runCube("-h"); code != 0 || !strings.Contains(errs, "commands:") || !strings.Contains(errs, "  replay ") {
		t.Errorf("cube -h: exit %d, no command list in %q", code, errs)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"help", "sim"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "-allow-desync") || !strings.Contains(out.String(), "exit codes:") {
		t.Errorf("help sim: exit %d, %q", code, out.String())
	}
	out.Reset()
	if code := run([]string{"help"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "sim ") || strings.Contains(out.String(), "-allow-desync") {
		t.Errorf("help: exit %d, %q", code, out.String())
	}
}
