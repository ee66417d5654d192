package viewer

import (
	"fmt"
	"io"
)

// KeyHelp is the record viewer's one key table: ui/window binds its keys
// from Binds, and its help overlay and `cube replay -h` show it.
var KeyHelp = []KeyEntry{
	{"Space", "play or pause", "play/pause", []Bind{{"Space", Play}}},
	{"Right Left", "one tick forward or back (pauses)", "tick +/-", []Bind{{"Right", TickFwd}, {"Left", TickBack}}},
	{"Up Down", "one second forward or back", "1 s +/-", []Bind{{"Up", SecFwd}, {"Down", SecBack}}},
	{"PageDown PageUp", "ten seconds forward or back", "10 s +/-", []Bind{{"PageDown", TenFwd}, {"PageUp", TenBack}}},
	{"Home End", "the start or the end of the record", "start/end", []Bind{{"Home", Start}, {"End", End}}},
	{"[ ]", "play slower or faster, 1/16x to 8x", "speed", []Bind{{"[", Slower}, {"]", Faster}}},
	{"D", "the first divergence: the recorded and re-simulated worlds at the stored state after it", "divergence", []Bind{{"D", Divergence}}},
	{"N", "the next tick that differs from the record, after the one shown", "next differing", []Bind{{"N", NextBad}}},
	{"R", "the field report of the first divergence on/off", "field report", []Bind{{"R", Report}}},
	{"S", "the stage report of the first divergence on/off: the first stage of its step that differs, from the record's stage hashes", "stage report", []Bind{{"S", Stages}}},
	{"G", "the recorded states of the differing bodies (cyan ghosts) on/off", "recorded ghosts", []Bind{{"G", Ghosts}}},
	{"C", "reset the camera", "reset camera", []Bind{{"C", Camera}}},
	{"Tab", "hide or show the status panel", "status", []Bind{{"Tab", HUD}}},
	{"F2", "debug: contacts of the shown world (points, normal and friction impulses)", "contacts", []Bind{{"F2", Contacts}}},
	{"F3", "debug: broad-phase bounds and the last step's pairs", "bounds", []Bind{{"F3", Bounds}}},
	{"F4", "debug: bodies tinted by island, sleeping ones dark", "islands", []Bind{{"F4", Islands}}},
	{"F5", "debug: contacts in their solver colour", "solver colours", []Bind{{"F5", Colours}}},
	{"F8", "debug: velocity arrows of the awake bodies", "velocities", []Bind{{"F8", Velocities}}},
	{"F12", "screenshot to cube-DATE-TIME-MS.png", "screenshot", []Bind{{"F12", Screenshot}}},
	{"F1 or H", "this help", "help", []Bind{{"F1", Help}, {"H", Help}}},
	{"Esc", "quit", "quit", []Bind{{"Esc", Quit}}},
	{"click, drag", "on the timeline: seek there", "seek", nil},
	{"mouse drag", "elsewhere: orbit the camera", "orbit camera", nil},
	{"wheel", "zoom in and out", "zoom", nil},
}

// KeyEntry is one row of the key table: its keys as the help shows them,
// what they do, a shorter description for small windows, and the keyboard
// keys it binds, by their label on a US keyboard (none for the mouse).
type KeyEntry struct {
	Key, What, Short string
	Binds            []Bind
}

// Bind is one keyboard key of the table and the action it asks for.
type Bind struct {
	Name string
	Act  Action
}

// PrintKeys prints the viewer's key table for `cube replay -h`.
func PrintKeys(w io.Writer) {
	fmt.Fprintln(w, "keys of the viewer (-window):")
	for _, k := range KeyHelp {
		fmt.Fprintf(w, "  %-15s %s\n", k.Key, k.What)
	}
}
