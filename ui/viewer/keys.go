package viewer

import (
	"fmt"
	"io"
)

// KeyHelp is the record viewer's key table: its help overlay and
// `cube replay -h` show it; ui/window binds the keys.
var KeyHelp = []struct{ Key, What, Short string }{
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

// PrintKeys prints the viewer's key table for `cube replay -h`.
func PrintKeys(w io.Writer) {
	fmt.Fprintln(w, "keys of the viewer (-window):")
	for _, k := range KeyHelp {
		fmt.Fprintf(w, "  %-15s %s\n", k.Key, k.What)
	}
}
