package window

import "io"

// Config is what a window's frame loop needs from the command line.
type Config struct {
	Title      string
	Width      int    // pixels
	Height     int    // pixels
	Frames     int    // quit after this many frames, 0: run until closed
	Screenshot string // with Frames: write the last frame to this PNG file
	Stdout     io.Writer
	Stderr     io.Writer
}
