package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/cubelab/cube/internal/viewer"
)

// printViewerKeys prints the viewer's key table for `cube replay -h`.
func printViewerKeys(w io.Writer) {
	fmt.Fprintln(w, "keys of the viewer (-window):")
	for _, k := range viewer.KeyHelp {
		fmt.Fprintf(w, "  %-15s %s\n", k.Key, k.What)
	}
}

// viewerFlags are cube replay's flags for the window.
type viewerFlags struct {
	window     bool
	width      int
	height     int
	frames     int
	screenshot string
	keys       string
}

func (v *viewerFlags) register(fs *flags) {
	fs.BoolVar(&v.window, "window", false, "play the record in a window: seek, step, scrub the timeline, see a divergence (keys: below)")
	fs.IntVar(&v.width, "width", 1280, fmt.Sprintf("with -window: width in pixels, %d to %d", minSize, maxSize))
	fs.IntVar(&v.height, "height", 720, fmt.Sprintf("with -window: height in pixels, %d to %d", minSize, maxSize))
	fs.IntVar(&v.frames, "frames", 0, "with -window: quit after this many frames (0: run until closed)")
	fs.StringVar(&v.screenshot, "screenshot", "", "with -window and -frames: write the last frame to this PNG file")
	fs.StringVar(&v.keys, "keys", "", "with -window: press these keys, comma-separated, one a frame from the first, once the whole record is checked: for scripted runs (e.g. End,D,R; - for no key, drag@F to hold the button on the timeline at the fraction F)")
}

// check validates the flags; set says which were given.
func (v *viewerFlags) check(set map[string]bool) error {
	if !v.window {
		for _, name := range []string{"width", "height", "frames", "screenshot", "keys"} {
			if set[name] {
				return usagef("-%s is for the viewer: add -window", name)
			}
		}
		return nil
	}
	if v.width < minSize || v.width > maxSize {
		return usagef("-width %d is out of range: want %d to %d", v.width, minSize, maxSize)
	}
	if v.height < minSize || v.height > maxSize {
		return usagef("-height %d is out of range: want %d to %d", v.height, minSize, maxSize)
	}
	if v.frames < 0 {
		return usagef("-frames %d is negative: want 0 (run until closed) or more", v.frames)
	}
	if v.screenshot != "" && v.frames == 0 {
		return usagef("-screenshot needs -frames N: the picture is of the last frame")
	}
	if v.screenshot != "" {
		if err := checkScreenshotPath(v.screenshot); err != nil {
			return err
		}
	}
	return nil
}

// keyList splits -keys into its names; "-" is a frame without a key.
func (v *viewerFlags) keyList() []string {
	if strings.TrimSpace(v.keys) == "" {
		return nil
	}
	out := strings.Split(v.keys, ",")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}
