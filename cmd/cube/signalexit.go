package main

import (
	"fmt"
	"syscall"

	"github.com/cubelab/cube/internal/runctl"
)

// signalExit returns, after a run a signal stopped, the error that ends the
// program as a shell expects (128 plus the signal's number) and says that
// the record, if any, is complete; nil when no signal came.
func signalExit(c *runctl.Control, record string, played float64) error {
	if c.Stopped() == nil {
		return nil
	}
	msg := fmt.Sprintf("stopped by %v after %.1f s of play", c.Stopped(), played)
	if record != "" {
		msg += fmt.Sprintf("; the record %s is complete to that point", record)
	}
	code := 130
	if c.Stopped() == syscall.SIGTERM {
		code = 143
	}
	return exitError{code: code, msg: msg}
}
