package main

import (
	"fmt"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/session"
)

// verdictFooter ends the help of cube sim and cube client: what their exit
// codes say.
var verdictFooter = fmt.Sprintf(`exit codes:
  %d  in sync: every client's final state is the server's, bit for bit
  %d  NOT IN SYNC: a client's final state is not the server's after the drain (up to %.0f s)
  2  a usage error (a flag or an argument out of range)
  %d  NONDETERMINISM: a client found bits that its inputs and the server's events cannot explain
  128+N  stopped by signal N
-allow-desync turns 1 and 3 into 0, for runs that mean to diverge (-no-corrections, -inject-nondeterminism).
`, session.ExitInSync, session.ExitNotInSync, session.MaxDrain.Seconds(), session.ExitNondeterminism)

// registerVerdict adds -allow-desync and the exit codes' help to fs.
func registerVerdict(fs *cli.Flags) *bool {
	fs.Footer = verdictFooter
	return fs.Bool("allow-desync", false, "exit 0 even when the run ends NOT IN SYNC or finds nondeterminism (see the exit codes below)")
}

// verdictExit returns the error that ends the command with the verdict's
// code (the summary already said why), nil for 0 or when allowed.
func verdictExit(code int, allowed bool) error {
	if c := exitCode(code, allowed); c != 0 {
		return exitError{code: c}
	}
	return nil
}

// exitCode returns the code the command exits with for the verdict's code.
func exitCode(code int, allowed bool) int {
	if allowed {
		return 0
	}
	return code
}
