package lab

import (
	"os"
	"strings"
	"testing"
)

// keyCells returns the first cells of the rows of the tables in a
// Markdown file whose header is "| key | does |".
func keyCells(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| key | does |"):
			in = true
		case !strings.HasPrefix(line, "|"):
			in = false
		case in && !strings.HasPrefix(line, "|---"):
			cells = append(cells, strings.TrimSpace(strings.Split(line, "|")[1]))
		}
	}
	return cells
}

// TestTheDocsKeyTablesHoldEveryKey: every key KeyHelp binds is in the
// first cell of a row of the README's key table and of docs/window.md's,
// which group keys ("Y, B, V") or name them alone.
func TestTheDocsKeyTablesHoldEveryKey(t *testing.T) {
	for _, path := range []string{"../../README.md", "../../docs/window.md"} {
		cells := keyCells(t, path)
		if len(cells) < 10 {
			t.Fatalf("%s: %d rows in its key table", path, len(cells))
		}
		named := map[string]bool{}
		for _, c := range cells {
			named[c] = true
			for _, f := range strings.Fields(strings.ReplaceAll(c, ",", " ")) {
				named[f] = true
			}
		}
		for _, k := range KeyHelp {
			if k.Key == "1 to 7" {
				if !named[k.Key] {
					t.Errorf("%s: no row for %s", path, k.Key)
				}
				continue
			}
			for _, b := range k.Binds {
				if !named[b.Name] {
					t.Errorf("%s: no row names %s (%s)", path, b.Name, k.Short)
				}
			}
		}
	}
}
