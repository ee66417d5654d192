package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: without GOGC in the environment the collector runs at
// gcPercent for cube sim and the window, and at netGCPercent for the
// other commands; with it, GOGC's value stands.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "100") // restored when the test ends
	os.Unsetenv("GOGC")
	for _, c := range []struct {
		args []string
		want int
	}{
		{nil, gcPercent},
		{[]string{"-scene", "cubes"}, gcPercent},
		{[]string{"sim", "-seconds", "1"}, gcPercent},
		{[]string{"server"}, netGCPercent},
		{[]string{"client", "-connect", "127.0.0.1:4242"}, netGCPercent},
	} {
		tuneGC(c.args)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Fatalf("without GOGC, %v: %d %%, want %d", c.args, got, c.want)
		}
	}
	t.Setenv("GOGC", "100")
	tuneGC([]string{"server"})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("with GOGC=100: %d %%, tuneGC changed it", got)
	}
}
