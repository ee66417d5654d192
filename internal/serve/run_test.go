package serve

import (
	"os"
	"strings"
	"testing"
)

// TestRunRefusesNoListening: a Config without its Listening callback is
// refused before anything is bound or opened (no record file is made).
func TestRunRefusesNoListening(t *testing.T) {
	dir := t.TempDir()
	_, err := Run(Config{Listen: "127.0.0.1:0", Record: dir + "/r.cube"}, nil)
	if err == nil || !strings.Contains(err.Error(), "Listening") {
		t.Fatalf("Run without Listening: %v, want an error naming it", err)
	}
	if _, err := os.Stat(dir + "/r.cube"); !os.IsNotExist(err) {
		t.Errorf("the record file was made (%v)", err)
	}
}
