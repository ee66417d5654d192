package protocol

// Mode is how a server keeps a client in step.
type Mode uint8

// Sync modes.
const (
	// ModeState: the server sends its bodies' states, as deltas against a
	// snapshot the client acknowledged; the client patches them into its
	// own state and replays (the original demo's model).
	ModeState Mode = 0
	// ModeInputs: the server sends only the inputs and events it applied
	// and a hash; the client rolls back to the first tick it got wrong and
	// replays. States travel only to start or to repair.
	ModeInputs Mode = 1
)

// String names the mode as the summaries do: "state" or "inputs".
func (m Mode) String() string {
	if m == ModeInputs {
		return "inputs"
	}
	return "state"
}
