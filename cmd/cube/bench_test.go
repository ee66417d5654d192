package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/cubelab/cube/internal/stepbench"
)

func TestBenchJSONHasEveryFigure(t *testing.T) {
	code, out, errs := runCube("bench", "-scene", "drop", "-bodies", "30", "-steps", "40", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	for _, f := range []string{"ms_per_step", "p99_step_ms", "allocs_per_step", "bodies", "awake_at_end", "contacts_at_end",
		"max_overlap_m", "max_drift_m", "replay32_ms", "save_restore_us", "restore_checked_us", "hash",
		"colours_mean", "colours_max", "overflow_mean", "overflow_max", "worker_share"} {
		if _, ok := r[f]; !ok {
			t.Errorf("no %s in %s", f, out)
		}
	}
	if r["bodies"] != float64(30) || r["steps"] != float64(40) || r["sleep"] != true {
		t.Errorf("bodies %v, steps %v, sleep %v", r["bodies"], r["steps"], r["sleep"])
	}
	if h, _ := r["hash"].(string); !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(h) {
		t.Errorf("hash %q", h)
	}
	if ms, _ := r["ms_per_step"].(float64); ms <= 0 {
		t.Errorf("ms_per_step %v", ms)
	}
	// The 30 cubes (one layer) land on the ground: there are contacts and
	// nothing overlaps deeply.
	if c, _ := r["contacts_at_end"].(float64); c == 0 {
		t.Error("no contacts at the end")
	}
	if o, _ := r["max_overlap_m"].(float64); o > 0.05 {
		t.Errorf("max_overlap_m %v", o)
	}
	// The same run gives the same hash; sleeping off gives another run.
	_, again, _ := runCube("bench", "-scene", "drop", "-bodies", "30", "-steps", "40", "-json")
	var r2 map[string]any
	if err := json.Unmarshal([]byte(again), &r2); err != nil || r2["hash"] != r["hash"] {
		t.Errorf("second run hash %v, first %v", r2["hash"], r["hash"])
	}
	_, nosleep, _ := runCube("bench", "-scene", "drop", "-bodies", "30", "-steps", "40", "-json", "-sleep=false")
	if !strings.Contains(nosleep, `"sleep":false`) {
		t.Errorf("-sleep=false: %s", nosleep)
	}
}

func TestBenchPrintsOneLinePerFigure(t *testing.T) {
	code, out, errs := runCube("bench", "-scene", "stack", "-steps", "40")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, f := range []string{"ms_per_step", "p99_step_ms", "allocs_per_step", "awake_at_end", "contacts_at_end",
		"max_overlap_m", "max_drift_m", "replay32_ms", "save_restore_us", "restore_checked_us", "hash",
		"colours_mean", "colours_max", "overflow_mean", "overflow_max", "worker_share"} {
		if !regexp.MustCompile(`(?m)^` + f + ` +\S+$`).MatchString(out) {
			t.Errorf("no line for %s in\n%s", f, out)
		}
	}
	// The values start in one column.
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if len(line) <= stepbench.NameWidth+1 || line[stepbench.NameWidth] != ' ' || line[stepbench.NameWidth+1] == ' ' {
			t.Errorf("line %q: its value does not start at column %d", line, stepbench.NameWidth+1)
		}
	}
}

func TestBenchRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "-scene", "moon"}, "arena, cubes, pyramid, stack, drop"},
		{[]string{"bench", "-scene", "drop", "-bodies", "5000"}, "want 1 to 4096"},
		{[]string{"bench", "-scene", "drop", "-bodies", "-1"}, "want 1 to 4096"},
		{[]string{"bench", "-scene", "stack", "-bodies", "10"}, "drop and tower scenes only"},
		{[]string{"bench", "-scene", "tower", "-bodies", "1001"}, "want 1 to 1000"},
		{[]string{"bench", "-scene", "load", "-ratio", "100001"}, "want 1 to 100000"},
		{[]string{"bench", "-scene", "drop", "-ratio", "10"}, "load scene only"},
		{[]string{"bench", "-steps", "32"}, "want 33 to"},
		{[]string{"bench", "-iterations", "0"}, "want 1 to 64"},
		{[]string{"bench", "-sleep=maybe"}, `-sleep "maybe": want true or false`},
	} {
		code, out, errs := runCube(c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
	code, _, errs := runCube("bench", "-h")
	if code != 0 {
		t.Fatalf("-h: exit %d", code)
	}
	for _, f := range []string{"-scene", "-bodies", "-ratio", "-steps", "-sleep", "-iterations", "-json"} {
		if !strings.Contains(errs, f) {
			t.Errorf("help does not mention %s:\n%s", f, errs)
		}
	}
}
