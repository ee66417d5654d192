package main

import (
	"encoding/json"
	"github.com/cubelab/cube/internal/stepbench"
	"strings"
	"testing"
)

func TestWorkersFlagRefusedOutOfRange(t *testing.T) {
	for _, cmd := range []string{"sim", "server", "client", "bench", "hash", "replay", "window"} {
		for _, n := range []string{"-1", "65"} {
			args := []string{cmd, "-workers", n}
			if cmd == "replay" {
				args = append(args, "no-such.rec")
			}
			code, _, errs := runCube(args...)
			if cmd == "window" && strings.Contains(errs, "built without cgo") {
				continue
			}
			if code != 2 || !strings.Contains(errs, "-workers "+n+" is out of range: want 1 to 64, or 0 for one per CPU") {
				t.Errorf("%s -workers %s: exit %d, %q", cmd, n, code, errs)
			}
		}
	}
}

func TestWorkersFlagGivesTheSameHash(t *testing.T) {
	var want string
	for _, n := range []string{"1", "2", "3", "0"} {
		code, out, errs := runCube("hash", "-scene", "pyramid", "-ticks", "300", "-workers", n)
		if code != 0 {
			t.Fatalf("-workers %s: exit %d, %s", n, code, errs)
		}
		if want == "" {
			want = out
		} else if out != want {
			t.Fatalf("-workers %s: hash %q, one worker %q", n, out, want)
		}
	}
}

func TestBenchReportsWorkers(t *testing.T) {
	code, out, errs := runCube("bench", "-scene", "pyramid", "-steps", "40", "-workers", "3", "-json")
	if code != 0 {
		t.Fatalf("exit %d, %s", code, errs)
	}
	var r stepbench.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Workers != 3 || !strings.Contains(out, `"workers":3`) {
		t.Fatalf("workers %d in %s", r.Workers, out)
	}
	// Each worker's share of the solver, and the colours of the pyramid's
	// rows (a row's boxes touch two below and two above: more than two).
	sum := 0.0
	for _, x := range r.WorkerShare {
		sum += x
	}
	if len(r.WorkerShare) != 3 || sum < 0.999 || sum > 1.001 {
		t.Errorf("worker_share %v", r.WorkerShare)
	}
	if r.ColoursMax < 3 || r.ColoursMean <= 0 || r.OverflowMax != 0 {
		t.Errorf("colours %v mean, %d max; overflow %d max", r.ColoursMean, r.ColoursMax, r.OverflowMax)
	}
}
