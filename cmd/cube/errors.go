package main

import (
	"errors"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
	"github.com/cubelab/cube/ui/window"
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
	if code, msg := c.Exit(record, played); code != 0 {
		return exitError{code: code, msg: msg}
	}
	return nil
}

// windowError turns what a window's loop returned into the command's
// error: no cgo, a window that cannot open (window.OpenError) or a
// diverged record exit 1; a bad -keys is a usage error; a record that
// cannot be replayed here exits 2. In a build without cgo, noCgo says
// what to do instead, after "no OpenGL window".
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
	if msg, ok := netclient.Failure(err, addr, c); ok {
		return exitError{code: 1, msg: msg}
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
