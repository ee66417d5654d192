// Command cube is a lab for client-side prediction of a physics-driven cube.
//
// With no arguments it opens the desktop demo. Its headless subcommands work
// in a build without cgo, on any machine Go targets:
//
//	cube hash     run a scene with its scripted inputs and print its state hash
//	cube sim      run a client and a server over a simulated link, print a summary
//	cube replay   re-simulate a session record and check every tick;
//	              with -window (cgo), watch it, seek and scrub it
//	cube server   serve a scene to clients over QUIC in real time
//	cube client   play an autopilot against a server over QUIC
//	cube bench    step a scene and print timings, overlap, drift and the hash
//	cube version  print the version and the revision the binary was built from
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/cubelab/cube/internal/cli"
)

// command is one subcommand.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"window", "open the desktop demo (the default with no subcommand)", runWindow},
		{"hash", "run a scene with its scripted inputs and print the state hash", runHash},
		{"sim", "run a client and a server over a simulated link, headless, and print a summary", runSim},
		{"replay", "re-simulate a session record on this machine and check every tick (-window: watch and scrub it)", runReplay},
		{"server", "serve a scene to clients over QUIC in real time, headless, and print a summary when stopped", runServer},
		{"client", "play a seeded autopilot against a cube server over QUIC, headless, and print a summary", runClient},
		{"bench", "step a scene with its scripted input and print timings, overlap, drift and the hash", runBench},
		{"version", "print the version and the revision the binary was built from", runVersion},
	}
}

func main() {
	tuneGC(os.Args[1:])
	// A reader that stops early (cube sim | head -1) ends the output, not
	// the program with SIGPIPE (exit 141): writes to the closed pipe fail
	// quietly and the command ends as it would have.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the exit code: 0 success, 1 a
// failure the command reports (for replay: a divergence), 2 bad usage or
// input.
func run(args []string, stdout, stderr io.Writer) int {
	name := "window"
	if len(args) > 0 && (args[0] == "-version" || args[0] == "--version") {
		name, args = "version", args[1:]
	} else if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" && len(args) > 0 && args[0] != "window" {
		// cube help COMMAND: that command's flags, on stdout.
		for _, c := range commands() {
			if c.name == args[0] {
				return runCommand(c.name, c.run, []string{"-h"}, stdout, stdout)
			}
		}
	}
	if name == "help" {
		printUsage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == name {
			return runCommand(name, c.run, args, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "cube: unknown command %q\n", name)
	printUsage(stderr)
	return 2
}

// runCommand runs one subcommand's function and turns what it returns into
// the exit code, printing its error once.
func runCommand(name string, fn func(args []string, stdout, stderr io.Writer) error, args []string, stdout, stderr io.Writer) int {
	out := &errWriter{w: stdout}
	err := fn(args, out, stderr)
	if err == nil && out.err != nil && !errors.Is(out.err, syscall.EPIPE) { // a reader that left early is no failure
		err = fmt.Errorf("writing the output: %w", out.err)
	}
	var ue cli.UsageError
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "cube %s: %v\n", name, err)
		fmt.Fprintf(stderr, "run 'cube %s -h' for help\n", name)
		return 2
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintf(stderr, "cube %s: %s\n", name, ee.msg)
		}
		return ee.code
	default:
		fmt.Fprintf(stderr, "cube %s: %v\n", name, err)
		return 1
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: cube [command] [flags]")
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "run 'cube COMMAND -h' or 'cube help COMMAND' for a command's flags")
}
