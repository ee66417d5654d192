package tick

// The catch-up caps: after a stall (a debugger breakpoint, a dragged
// window, a slow software renderer, a busy machine, a process stopped and
// continued) a clock owes many ticks. Running them all at once would make
// the next turn slower still and the debt would grow (the spiral of
// death), so each clock runs at most its cap back to back and then drops
// the rest of the debt: its simulation runs slower than the wall clock
// for a moment instead. A client is the exception (MaxClientLate).
const (
	// MaxFrameTicks caps the ticks one window frame runs: 125 ms of
	// simulation at 64 Hz.
	MaxFrameTicks = 8
	// MaxServerLate caps the turns a real server's pacer runs back to
	// back. Its ticks slip for a moment and its clients' time sync
	// follows.
	MaxServerLate = 4
	// MaxClientLate caps the turns a real client's pacer catches up: 5 s
	// at 64 Hz, after which the server has given the client up anyway (its
	// idle timeout). A client cannot drop its debt: one that falls behind
	// the server's clock finds every server message about a tick it has
	// not reached, ignores them, and never learns that it is behind.
	MaxClientLate = 320
	// MaxAdvance caps the ticks one Advance of a clocked server
	// simulates: a second at 64 Hz.
	MaxAdvance = 64
)
