package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cubelab/cube/internal/lab/window"
)

// windowError turns what a window's loop returned into the command's
// error: no cgo, a window that cannot open or a diverged record exit 1, a
// bad -keys is a usage error, a record that cannot be replayed here exit
// 2. noCgo follows "no OpenGL window" in a build without cgo: what to do
// instead.
func windowError(err error, noCgo string) error {
	var oe *window.OpenError
	var ke *window.KeyError
	var re *window.ReplayError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, window.ErrNoOpenGL):
		return exitError{code: 1, msg: "this binary was built without cgo, so it has no OpenGL window" + noCgo}
	case errors.As(err, &oe):
		return exitError{code: 1, msg: windowFailure(oe.Err)}
	case errors.As(err, &ke):
		return usageError{ke.Msg}
	case errors.As(err, &re):
		return exitError{code: 2, msg: fmt.Sprintf("%s cannot be replayed here: %s", re.Name, strings.TrimPrefix(re.Err.Error(), "record: replay: "))}
	case errors.Is(err, window.ErrDiverged):
		return exitError{code: 1}
	}
	return err
}
