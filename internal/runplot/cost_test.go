package runplot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteCost writes a plot of both modes and checks it is a PNG of
// some substance.
func TestWriteCost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cost.png")
	pts := []CostPoint{{"state", 2, 180, 9}, {"state", 4, 1700, 99}, {"inputs", 2, 180, 8}, {"inputs", 4, 1300, 66}}
	if err := WriteCost(path, "correction cost", pts); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 5000 {
		t.Errorf("%d bytes, starting %q: not a plot", len(b), b[:min(8, len(b))])
	}
}
