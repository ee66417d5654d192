package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: without GOGC in the environment the collector runs at
// gcPercent; with it, GOGC's value stands.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "100") // restored when the test ends
	os.Unsetenv("GOGC")
	tuneGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Fatalf("without GOGC: %d %%, want %d", got, gcPercent)
	}
	t.Setenv("GOGC", "100")
	tuneGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("with GOGC=100: %d %%, tuneGC changed it", got)
	}
}
