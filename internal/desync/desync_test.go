package desync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
)

// TestASecondReportDoesNotOverwriteTheFirst: two reports of the same tick
// (a reset, a second run in the folder) go to two files.
func TestASecondReportDoesNotOverwriteTheFirst(t *testing.T) {
	dir := t.TempDir()
	m := &predict.Misprediction{Kind: predict.KindNondeterminism, Tick: 42}
	var out strings.Builder
	first := Report(&out, &out, dir, m)
	second := Report(&out, &out, dir, m)
	if first == "" || second == "" || first == second {
		t.Fatalf("reports %q and %q:\n%s", first, second, out.String())
	}
	if filepath.Base(first) != "cube-desync-tick42.txt" || filepath.Base(second) != "cube-desync-tick42-2.txt" {
		t.Errorf("reports %q and %q", first, second)
	}
}

// TestTheReportNamesEveryDifferingField: a report of a client's state
// against the server's lists each field that differs, both values, and
// says which is which; one of kind rewind says it was the sync test.
func TestTheReportNamesEveryDifferingField(t *testing.T) {
	var a, b physics.State
	a.Tick, b.Tick = 9, 9
	a.Bodies = []physics.BodyState{{}, {}}
	b.Bodies = []physics.BodyState{{}, {}}
	b.Bodies[1].Pos.X = 1
	dir := t.TempDir()
	var out strings.Builder
	path := Report(&out, &out, dir, &predict.Misprediction{Kind: predict.KindNondeterminism, Tick: 9, From: 3, Predicted: &a, Server: &b})
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (stdout %q)", err, out.String())
	}
	if !strings.Contains(string(text), "tick 9 differs from the server's") || !strings.Contains(string(text), "1 fields differ (client value first, then server)") {
		t.Errorf("report:\n%s", text)
	}
	path = Report(&out, &out, dir, &predict.Misprediction{Kind: predict.KindRewind, Tick: 9, From: 3, Predicted: &a, Server: &b})
	if text, err = os.ReadFile(path); err != nil || !strings.Contains(string(text), "the sync test replayed ticks 3 to 9") || !strings.Contains(string(text), "(predicted value first, then replayed)") {
		t.Errorf("rewind report %v:\n%s", err, text)
	}
	if filepath.Base(path) != "cube-desync-tick9-2.txt" {
		t.Errorf("second report of tick 9 in %s", path)
	}
}
