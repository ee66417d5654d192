//go:build !cgo

package window

import (
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/ui/lab"
)

// Supported reports whether this build has the window: it has not.
const Supported = false

// Run returns ErrNoOpenGL: this build has no window.
func Run(l *lab.Lab, cfg Config) error { return ErrNoOpenGL }

// Replay returns ErrNoOpenGL: this build has no window.
func Replay(name string, rec *record.Record, keys string, cfg Config) error { return ErrNoOpenGL }
