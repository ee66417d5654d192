package viewer

import (
	"os"
	"strings"
	"testing"
)

// TestTheDocsKeyTableHoldsEveryKey: every key KeyHelp binds is named in
// the first cell of a row of the viewer's key table in docs/determinism.md
// (the README's and docs/window.md's tables are the window's, ui/lab's).
func TestTheDocsKeyTableHoldsEveryKey(t *testing.T) {
	b, err := os.ReadFile("../../docs/determinism.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## The record viewer\n")
	if !ok {
		t.Fatal("docs/determinism.md has no section \"The record viewer\"")
	}
	_, table, ok := strings.Cut(section, "\n| key | action |\n|---|---|\n")
	if !ok {
		t.Fatal("the viewer's section has no key table")
	}
	named := map[string]bool{}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		rows++
		cell := strings.TrimSpace(strings.Split(line, "|")[1])
		for _, f := range strings.Fields(strings.ReplaceAll(cell, ",", " ")) {
			named[f] = true
		}
	}
	if rows < 10 {
		t.Fatalf("%d rows in the viewer's key table", rows)
	}
	for _, k := range KeyHelp {
		for _, b := range k.Binds {
			if !named[b.Name] {
				t.Errorf("docs/determinism.md's viewer key table has no row naming %s (%s)", b.Name, k.Short)
			}
		}
	}
}
