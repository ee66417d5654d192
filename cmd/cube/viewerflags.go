package main

import (
	"fmt"

	"github.com/cubelab/cube/internal/cli"
)

// viewerFlags are cube replay's flags for the window.
type viewerFlags struct {
	window bool
	frame  frameFlags
	keys   string
}

func (v *viewerFlags) register(fs *cli.Flags) {
	fs.BoolVar(&v.window, "window", false, "play the record in a window: seek, step, scrub the timeline, see a divergence (keys: below)")
	fs.IntVar(&v.frame.width, "width", 1280, fmt.Sprintf("with -window: width in pixels, %d to %d", minSize, maxSize))
	fs.IntVar(&v.frame.height, "height", 720, fmt.Sprintf("with -window: height in pixels, %d to %d", minSize, maxSize))
	fs.IntVar(&v.frame.frames, "frames", 0, "with -window: quit after this many frames (0: run until closed)")
	fs.StringVar(&v.frame.screenshot, "screenshot", "", "with -window and -frames: write the last frame to this PNG file")
	fs.StringVar(&v.keys, "keys", "", "with -window: press these keys, comma-separated, one a frame from the first, once the whole record is checked: for scripted runs (e.g. End,D,R; - for no key, drag@F to hold the button on the timeline at the fraction F)")
}

// check validates the flags; set says which were given.
func (v *viewerFlags) check(set map[string]bool) error {
	if !v.window {
		for _, name := range []string{"width", "height", "frames", "screenshot", "keys"} {
			if set[name] {
				return cli.Usagef("-%s is for the viewer: add -window", name)
			}
		}
		return nil
	}
	return v.frame.check()
}
