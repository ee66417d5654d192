package window

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoOpenGL is what Run and Replay return in a build without cgo: there
// is no OpenGL window to open.
var ErrNoOpenGL = errors.New("window: built without cgo, so there is no OpenGL window")

// ErrDiverged is what Replay returns when the record's re-simulation
// differs from it; the report is already written.
var ErrDiverged = errors.New("window: the record diverged")

// OpenError is a window that could not open (no display, no OpenGL 4.1):
// Err is render's reason. Record, for the viewer's window, is the record
// it was to show.
type OpenError struct {
	Err    error
	Record string
}

// Error is one line that names the cause and the way out: the headless
// command that does the same work.
func (e *OpenError) Error() string {
	cause := strings.TrimPrefix(e.Err.Error(), "render: ")
	cause = strings.Join(strings.Fields(strings.ReplaceAll(cause, "\n", "; ")), " ")
	if e.Record != "" {
		return cause + "; 'cube replay " + e.Record + "' checks the record headless"
	}
	return cause + "; 'cube sim' runs the same session headless"
}

// Unwrap returns render's reason.
func (e *OpenError) Unwrap() error { return e.Err }

// KeyError is a -keys script that names no key or a bad drag: a usage
// error of the caller's flag.
type KeyError struct{ Msg string }

func (e *KeyError) Error() string { return e.Msg }

// ReplayError is a record the viewer cannot re-simulate on this machine
// (another scene, a damaged state): Err says why.
type ReplayError struct {
	Name string // the record's file
	Err  error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("%s cannot be replayed here: %s", e.Name, strings.TrimPrefix(e.Err.Error(), "record: replay: "))
}

// Unwrap returns the reason.
func (e *ReplayError) Unwrap() error { return e.Err }
