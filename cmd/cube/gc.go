package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target unless GOGC says otherwise:
// the heap may grow by half its live size between collections, not by all
// of it. Almost all of cube's heap is world states kept for rewinding
// (keyframes, views, transfers): arrays without pointers, which a
// collection does not scan, so collecting twice as often costs little,
// while the default would let a large scene's process use twice what it
// keeps (the cubes scene on the outage preset keeps about 54 MB).
const gcPercent = 50

// tuneGC applies gcPercent when the environment does not set GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
