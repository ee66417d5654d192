package lab

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
)

// KeyHelp is the key table: the help overlay, `cube window -h` and the
// key tables of the README and docs/window.md show it. Movement keys are held, the others act once per press.
// Keys marked "in process" act on the server or the session in this
// process; a window that plays against a remote server (-connect) says so
// on the HUD instead, and its preset keys set its own link's conditions.
// Each key has its description (what) and a shorter one (short) for the
// help overlay of small windows.
var KeyHelp = []struct{ Key, What, Short string }{
	{"W A S D", "push the cube (-Z -X +Z +X: world axes)", "push the cube"},
	{"Space", "jump, when standing on something", "jump"},
	{"E", "pull the cubes nearby in (cubes scene)", "pull cubes"},
	{"1 to 7", "preset: perfect lan good average bad terrible outage", "network preset"},
	{"[ ]", "halve or double the snapshot rate, 1 to 64 Hz (in process)", "snapshot rate"},
	{"C", "corrections on/off", "corrections"},
	{"M", "smoothing on/off", "smoothing"},
	{"R", "redundant inputs on/off", "redundancy"},
	{"T", "sync test on/off: after every tick, rewind 8 ticks (or -synctest N), replay them in full and partially, and compare the bits", "sync test"},
	{"Y", "server's cube (yellow) on/off (in process)", "server cube"},
	{"B", "last snapshot's cube (blue) on/off", "snapshot cube"},
	{"V", "raw predicted cube (wireframe) on/off", "predicted cube"},
	{"K", "nudge the server's cube, a server-only event (in process)", "nudge"},
	{"N", "next scene: arena, cubes, pyramid, stack, drop (in process)", "next scene"},
	{"I", "sync mode: state (the server sends bodies) or inputs (it sends inputs); the session restarts (in process)", "sync mode"},
	{"P", "pause (in process)", "pause"},
	{".", "step one tick while paused (in process)", "step"},
	{"Backspace", "reset the session (in process)", "reset"},
	{"Home", "reset the camera", "reset camera"},
	{"Tab", "hide or show the HUD and the graph", "HUD and graph"},
	{"F12", "screenshot to cube-DATE-TIME-MS.png", "screenshot"},
	{"F1 or H", "this help", "help"},
	{"Esc", "quit", "quit"},
	{"mouse drag", "orbit the camera around the cube", "orbit camera"},
	{"wheel", "zoom in and out", "zoom"},
}

// inProcessKeys are the actions on the server or the session in this
// process, which a window playing against a remote server cannot do, with
// the name its note gives them.
var inProcessKeys = map[Action]string{
	ActSlower: "[ ] (snapshot rate)", ActFaster: "[ ] (snapshot rate)", ActNudge: "K (nudge)", ActNextScene: "N (next scene)", ActSyncMode: "I (sync mode)",
	ActReset: "Backspace (reset)", ActPause: "P (pause)", ActStep: ". (step)", ActServerCube: "Y (server cube)",
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
