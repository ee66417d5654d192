package lab

import "github.com/cubelab/cube/game"

// Action is something a key does in the window.
type Action int

// The actions the window's keys perform.
const (
	ActNone Action = iota
	ActPreset1
	ActPreset2
	ActPreset3
	ActPreset4
	ActPreset5
	ActPreset6
	ActPreset7
	ActSlower
	ActFaster
	ActCorrections
	ActSmoothing
	ActRedundancy
	ActSyncTest
	ActServerCube
	ActSnapshotCube
	ActPredictedCube
	ActNudge
	ActPause
	ActStep
	ActReset
	ActNextScene
	ActSyncMode
	ActResetCamera
	ActOverlay
	ActScreenshot
	ActHelp
	ActQuit
	// The debug drawing's layers, in the order of Layer.
	ActContacts
	ActBounds
	ActIslands
	ActColours
	ActRewind
	ActCorrection
	ActVelocities
)

// KeyHelp is the window's one key table: the keys the window binds
// (ui/window builds its bindings from Binds), the help overlay, `cube
// window -h`, the HUD's notes on keys a remote window cannot use, and the
// key tables of the README and docs/window.md (a test holds them to it).
// Movement keys are held, the others act once per press. Keys marked "in
// process" act on the server or the session in this process; a window that
// plays against a remote server (-connect) says so on the HUD instead, and
// its preset keys set its own link's conditions. Each key has its
// description (What) and a shorter one (Short) for the help overlay of
// small windows.
var KeyHelp = []KeyEntry{
	{Key: "W A S D", What: "push the cube (-Z -X +Z +X: world axes)", Short: "push the cube",
		Binds: []Bind{{Name: "W", Move: game.Forward}, {Name: "A", Move: game.Left}, {Name: "S", Move: game.Back}, {Name: "D", Move: game.Right}}},
	{Key: "Space", What: "jump, when standing on something", Short: "jump", Binds: []Bind{{Name: "Space", Move: game.Jump}}},
	{Key: "E", What: "pull the cubes nearby in (cubes scene)", Short: "pull cubes", Binds: []Bind{{Name: "E", Move: game.Pull}}},
	{Key: "1 to 7", What: "preset: perfect lan good average bad terrible outage", Short: "network preset",
		Binds: []Bind{{Name: "1", Act: ActPreset1}, {Name: "2", Act: ActPreset2}, {Name: "3", Act: ActPreset3}, {Name: "4", Act: ActPreset4},
			{Name: "5", Act: ActPreset5}, {Name: "6", Act: ActPreset6}, {Name: "7", Act: ActPreset7}}},
	{Key: "[ ]", What: "halve or double the snapshot rate, 1 to 64 Hz (in process)", Short: "snapshot rate", Remote: "[ ] (snapshot rate)",
		Binds: []Bind{{Name: "[", Act: ActSlower}, {Name: "]", Act: ActFaster}}},
	{Key: "C", What: "corrections on/off", Short: "corrections", Binds: []Bind{{Name: "C", Act: ActCorrections}}},
	{Key: "M", What: "smoothing on/off", Short: "smoothing", Binds: []Bind{{Name: "M", Act: ActSmoothing}}},
	{Key: "R", What: "redundant inputs on/off", Short: "redundancy", Binds: []Bind{{Name: "R", Act: ActRedundancy}}},
	{Key: "T", What: "sync test on/off: after every tick, rewind 8 ticks (or -synctest N), replay them in full and partially, and compare the bits", Short: "sync test",
		Binds: []Bind{{Name: "T", Act: ActSyncTest}}},
	{Key: "Y", What: "server's cube (yellow) on/off (in process)", Short: "server cube", Remote: "Y (server cube)", Binds: []Bind{{Name: "Y", Act: ActServerCube}}},
	{Key: "B", What: "last snapshot's cube (blue) on/off", Short: "snapshot cube", Binds: []Bind{{Name: "B", Act: ActSnapshotCube}}},
	{Key: "V", What: "raw predicted cube (wireframe) on/off", Short: "predicted cube", Binds: []Bind{{Name: "V", Act: ActPredictedCube}}},
	{Key: "K", What: "nudge the server's cube, a server-only event (in process)", Short: "nudge", Remote: "K (nudge)", Binds: []Bind{{Name: "K", Act: ActNudge}}},
	{Key: "N", What: "next scene: arena, cubes, pyramid, stack, drop (in process)", Short: "next scene", Remote: "N (next scene)", Binds: []Bind{{Name: "N", Act: ActNextScene}}},
	{Key: "I", What: "sync mode: state (the server sends bodies) or inputs (it sends inputs); the session restarts (in process)", Short: "sync mode", Remote: "I (sync mode)",
		Binds: []Bind{{Name: "I", Act: ActSyncMode}}},
	{Key: "P", What: "pause (in process)", Short: "pause", Remote: "P (pause)", Binds: []Bind{{Name: "P", Act: ActPause}}},
	{Key: ".", What: "step one tick while paused (in process)", Short: "step", Remote: ". (step)", Binds: []Bind{{Name: ".", Act: ActStep}}},
	{Key: "Backspace", What: "reset the session (in process)", Short: "reset", Remote: "Backspace (reset)", Binds: []Bind{{Name: "Backspace", Act: ActReset}}},
	{Key: "Home", What: "reset the camera", Short: "reset camera", Binds: []Bind{{Name: "Home", Act: ActResetCamera}}},
	{Key: "Tab", What: "hide or show the HUD and the graph", Short: "HUD and graph", Binds: []Bind{{Name: "Tab", Act: ActOverlay}}},
	{Key: "F2", What: "debug: contacts (points, normals as long as their normal impulse, friction impulses)", Short: "contacts", Binds: []Bind{{Name: "F2", Act: ActContacts}}},
	{Key: "F3", What: "debug: broad-phase bounds and pairs", Short: "bounds", Binds: []Bind{{Name: "F3", Act: ActBounds}}},
	{Key: "F4", What: "debug: bodies tinted by island, sleeping ones dark", Short: "islands", Binds: []Bind{{Name: "F4", Act: ActIslands}}},
	{Key: "F5", What: "debug: contacts in their solver colour (grey: not solved in the last step)", Short: "solver colours", Binds: []Bind{{Name: "F5", Act: ActColours}}},
	{Key: "F6", What: "debug: bodies the last rewinds re-simulated, fading over a second", Short: "rewind", Binds: []Bind{{Name: "F6", Act: ActRewind}}},
	{Key: "F7", What: "debug: bodies that differed at the last correction, a line from predicted to server", Short: "correction", Binds: []Bind{{Name: "F7", Act: ActCorrection}}},
	{Key: "F8", What: "debug: velocity arrows of the awake bodies", Short: "velocities", Binds: []Bind{{Name: "F8", Act: ActVelocities}}},
	{Key: "F12", What: "screenshot to cube-DATE-TIME-MS.png", Short: "screenshot", Binds: []Bind{{Name: "F12", Act: ActScreenshot}}},
	{Key: "F1 or H", What: "this help", Short: "help", Binds: []Bind{{Name: "F1", Act: ActHelp}, {Name: "H", Act: ActHelp}}},
	{Key: "Esc", What: "quit", Short: "quit", Binds: []Bind{{Name: "Esc", Act: ActQuit}}},
	{Key: "mouse drag", What: "orbit the camera around the cube", Short: "orbit camera"},
	{Key: "wheel", What: "zoom in and out", Short: "zoom"},
}

// KeyEntry is one row of the key table.
type KeyEntry struct {
	Key, What, Short string
	// Remote, for a key that acts in process only, is how the HUD names it
	// to a window playing against a remote server.
	Remote string
	// Binds are the keyboard keys of the row, by their label on a US
	// keyboard (ui/render's key names); none for the mouse.
	Binds []Bind
}

// Bind is one keyboard key of the table: an action on a press, or an
// input bit while it is held.
type Bind struct {
	Name string
	Act  Action
	Move game.Input
}

// remoteNote returns the HUD's name of action a when it acts in process
// only, and false for an action a remote window performs too.
func remoteNote(a Action) (string, bool) {
	for _, k := range KeyHelp {
		for _, b := range k.Binds {
			if b.Act == a && a != ActNone && k.Remote != "" {
				return k.Remote, true
			}
		}
	}
	return "", false
}

// HelpLines returns the help overlay's lines: a heading, then the key
// table as "key\tdescription\tshort description" lines.
func HelpLines() []string {
	out := []string{"Keys and mouse (F1 or H closes this help)"}
	for _, k := range KeyHelp {
		out = append(out, k.Key+"\t"+k.What+"\t"+k.Short)
	}
	return out
}
