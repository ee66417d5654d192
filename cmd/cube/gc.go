package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target unless GOGC says otherwise:
// the heap may grow by a quarter of its live size between collections,
// not by all of it. Almost all of cube's heap is world states kept for
// rewinding (keyframes, traces, views, transfers): arrays without
// pointers, which a collection does not scan, so collecting four times as
// often costs little, while the default would let a large scene's process
// use twice what it keeps. The cubes scene on the outage preset keeps up
// to 75 MB live: cube sim -seconds 120 of it peaked at 140 MB with 50 and
// 122 MB with 25, in 424 and 430 s of CPU, run side by side
// (docs/performance.md).
const gcPercent = 25

// tuneGC applies gcPercent when the environment does not set GOGC.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
