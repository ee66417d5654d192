package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/lab/window"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// What went wrong, as the user sees it: a message and an exit code (a
// usage error, cli.UsageError, exits 2 with the command's help hint); and
// the errors of the packages that run the commands turned into those.

// exitError ends the program with a given code and message.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

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

// windowError turns what a window's loop returned into the command's
// error: no cgo, a window that cannot open (window.OpenError) or a
// diverged record exit 1, a bad -keys is a usage error, a record that
// cannot be replayed here exit 2. noCgo follows "no OpenGL window" in a build without cgo: what to do
// instead.
func windowError(err error, noCgo string) error {
	var ke *window.KeyError
	var re *window.ReplayError
	switch {
	case errors.Is(err, window.ErrNoOpenGL):
		return exitError{code: 1, msg: "this binary was built without cgo, so it has no OpenGL window" + noCgo}
	case errors.As(err, &ke):
		return cli.UsageError{Msg: ke.Msg}
	case errors.As(err, &re):
		return exitError{code: 2, msg: re.Error()}
	case errors.Is(err, window.ErrDiverged):
		return exitError{code: 1}
	}
	return err // nil, or a window that could not open: exit 1 with its message
}

// turnFailure turns what ended a turn of client c against the server at
// addr into the command's error: a refusal or a lost server in one line,
// exit 1.
func turnFailure(err error, addr string, c *predict.Client) error {
	if errors.Is(err, predict.ErrRefused) {
		why := err.Error()
		if i := strings.Index(why, predict.ErrRefused.Error()+": "); i >= 0 {
			why = why[i+len(predict.ErrRefused.Error())+2:]
		}
		return exitError{code: 1, msg: fmt.Sprintf("the server at %s refused this client: %s (this client built %s in %s sync)",
			addr, why, c.Scene().ID, c.Config.Mode)}
	}
	var lost *transport.LostError
	if errors.As(err, &lost) {
		return exitError{code: 1, msg: lost.Error()}
	}
	return err
}

// dialError turns a failed dial into the command's error: a pin or
// address the user got wrong is a usage error (exit 2), anything else
// (no answer, refused, a wrong pin's certificate) one line and exit 1.
func dialError(err error) error {
	if errors.Is(err, transport.ErrBadPin) || errors.Is(err, transport.ErrInsecureRemote) {
		return cli.UsageError{Msg: err.Error()}
	}
	return exitError{code: 1, msg: err.Error()}
}
