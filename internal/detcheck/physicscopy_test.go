package detcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// A mul that feeds a sum, with two named operands: "x - mul(a.b, c)" or
// "mul(a, b) + x".
var summedMul = regexp.MustCompile(`([+-] )mul\(([A-Za-z][\w.]*), ([A-Za-z][\w.]*)\)|mul\(([A-Za-z][\w.]*), ([A-Za-z][\w.]*)\)( [+-] )`)

// TestPhysicsCopyWithoutOneMul copies the engine, takes the rounding out of
// one product of its solver (mul(a, b) becomes a*b) and wants exactly that
// line reported: the analyzer sees a real break, and nothing else in the
// engine is a finding.
func TestPhysicsCopyWithoutOneMul(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "src", "physics")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../../physics/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no physics files found: %v", err)
	}
	changed := ""
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "solver.go" {
			src, changed = unroundOne(t, src)
		}
		if err := os.WriteFile(filepath.Join(pkg, filepath.Base(f)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("solver.go, rounding taken out: %s", changed)
	analysistest.Run(t, dir, Analyzer, "physics")
}

// unroundOne rewrites the first mul(a, b) of src that feeds a sum as a*b and
// marks the line with the finding it must give.
func unroundOne(t *testing.T, src []byte) ([]byte, string) {
	lines := strings.Split(string(src), "\n")
	for i, line := range lines {
		m := summedMul.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		g := func(k int) string { return line[m[2*k]:m[2*k+1]] }
		var a, b, repl string
		if m[2] >= 0 {
			a, b = g(2), g(3)
			repl = g(1) + a + "*" + b
		} else {
			a, b = g(4), g(5)
			repl = a + "*" + b + g(6)
		}
		want := regexp.QuoteMeta(fmt.Sprintf("fma: %s * %s feeds", a, b))
		lines[i] = line[:m[0]] + repl + line[m[1]:] + " // want `" + want + "`"
		return []byte(strings.Join(lines, "\n")), strings.TrimSpace(lines[i])
	}
	t.Fatal("solver.go has no mul(a, b) feeding a sum any more: pick another file")
	return nil, ""
}
