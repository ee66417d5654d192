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

// netGCPercent is the target of the commands that talk over a network
// (cube server, cube client, cube replay, cube bench, ...): a server or a
// client keeps one world, while a flood of datagrams makes the transport
// allocate for every one of them. At 25, the collections of a server and
// its clients on one machine took the server's tick p99 under a flood
// from 1.6 to 1.9 ms to 2.0 to 2.7 ms (scripts/attack.sh 10
// max-input-flood).
const netGCPercent = 50

// tuneGC applies, when the environment does not set GOGC, gcPercent to
// the commands that run a whole session in one process (cube sim and the
// window, the default) and netGCPercent to the others.
func tuneGC(args []string) {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	name := "window"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name = args[0]
	}
	if name == "sim" || name == "window" {
		debug.SetGCPercent(gcPercent)
		return
	}
	debug.SetGCPercent(netGCPercent)
}
