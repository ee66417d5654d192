package main

import (
	"fmt"
	"io"
)

// viewerKeyHelp is the record viewer's key table: its help overlay and
// `cube replay -h` show it.
var viewerKeyHelp = []struct{ key, what, short string }{
	{"Space", "play or pause", "play/pause"},
	{"Right Left", "one tick forward or back (pauses)", "tick +/-"},
	{"Up Down", "one second forward or back", "1 s +/-"},
	{"PageDown PageUp", "ten seconds forward or back", "10 s +/-"},
	{"Home End", "the start or the end of the record", "start/end"},
	{"[ ]", "play slower or faster, 1/16x to 8x", "speed"},
	{"D", "the first divergence: the recorded and re-simulated worlds at the stored state after it", "divergence"},
	{"N", "the next tick that differs from the record, after the one shown", "next differing"},
	{"R", "the field report of the first divergence on/off", "field report"},
	{"G", "the recorded states of the differing bodies (cyan ghosts) on/off", "recorded ghosts"},
	{"C", "reset the camera", "reset camera"},
	{"Tab", "hide or show the status panel", "status"},
	{"F12", "screenshot to cube-DATE-TIME-MS.png", "screenshot"},
	{"F1 or H", "this help", "help"},
	{"Esc", "quit", "quit"},
	{"click, drag", "on the timeline: seek there", "seek"},
	{"mouse drag", "elsewhere: orbit the camera", "orbit camera"},
	{"wheel", "zoom in and out", "zoom"},
}

// printViewerKeys prints the viewer's key table for `cube replay -h`.
func printViewerKeys(w io.Writer) {
	fmt.Fprintln(w, "keys of the viewer (-window):")
	for _, k := range viewerKeyHelp {
		fmt.Fprintf(w, "  %-15s %s\n", k.key, k.what)
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
