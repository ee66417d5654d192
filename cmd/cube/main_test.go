package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func runCube(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHashPrintsSixteenHexDigits(t *testing.T) {
	code, out, _ := runCube("hash", "-ticks", "100")
	if code != 0 || !regexp.MustCompile(`^[0-9a-f]{16}\n$`).MatchString(out) {
		t.Fatalf("exit %d, output %q", code, out)
	}
	_, again, _ := runCube("hash", "-ticks", "100")
	_, other, _ := runCube("hash", "-ticks", "101")
	if again != out || other == out {
		t.Fatalf("100 ticks: %q then %q; 101 ticks: %q", out, again, other)
	}
}

func TestBadFlagsAreRefusedWithTheValidRange(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"hash", "-ticks", "-5"}, "want 0 to"},
		{[]string{"hash", "-ticks", "x"}, `-ticks "x": want a whole number`},
		{[]string{"hash", "extra"}, "unexpected argument"},
		{[]string{"sim", "-preset", "mars"}, "1 perfect, 2 lan, 3 good, 4 average, 5 bad, 6 terrible, 7 outage"},
		{[]string{"sim", "-snapshot-hz", "3"}, "[64 32 16 8 4 2 1]"},
		{[]string{"sim", "-seconds", "-1"}, "want 0 to"},
		{[]string{"sim", "-seconds", "NaN"}, "want 0 to"},
		{[]string{"sim", "-nudge-every", "-2"}, "want 0 (never)"},
		{[]string{"sim", "-missing", "guess"}, "skip or repeat"},
		{[]string{"sim", "-start-tick", "4294967296"}, "want 0 to 4294967295"},
		{[]string{"fly"}, "unknown command"},
	}
	for _, c := range cases {
		code, out, errs := runCube(c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}

func TestHelpListsEveryFlag(t *testing.T) {
	code, _, errs := runCube("sim", "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, f := range []string{"-preset", "-seconds", "-seed", "-snapshot-hz", "-no-redundancy", "-no-corrections", "-nudge-every", "-json"} {
		if !strings.Contains(errs, f) {
			t.Errorf("sim -h does not mention %s", f)
		}
	}
}

func TestSimJSON(t *testing.T) {
	code, out, errs := runCube("sim", "-preset", "bad", "-seconds", "20", "-nudge-every", "4", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"preset", "seconds", "ticks", "snapshot_hz", "rtt_ms", "packets", "bytes_per_second",
		"corrections", "replayed_ticks", "max_replay_ticks", "stale_states_ignored", "skipped_ticks",
		"position_error_m", "display_jump_m", "final", "mispredictions"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	final := m["final"].(map[string]any)
	if final["in_sync"] != true || m["preset"] != "bad" || m["rtt_ms"].(float64) != 500 || m["corrections"].(float64) < 3 {
		t.Fatalf("unexpected summary: %s", out)
	}
	pk := m["packets"].(map[string]any)
	for _, k := range []string{"up_sent", "up_lost", "down_sent", "down_lost"} {
		if _, ok := pk[k]; !ok {
			t.Errorf("packets lacks %q", k)
		}
	}
}

func TestSimReadableSummary(t *testing.T) {
	code, out, _ := runCube("sim", "-preset", "perfect", "-seconds", "5")
	if code != 0 || !strings.Contains(out, "0 corrections") || !strings.Contains(out, "IN SYNC") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}
