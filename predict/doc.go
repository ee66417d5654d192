// Package predict is client-side prediction with server reconciliation for
// the physics cube.
//
// The client samples an input every tick, stores it and the state before
// the step in rings of tick.RingSize entries indexed by tick, steps its own world
// at once and sends every input the server may not have yet. The server
// applies inputs in tick order and sends snapshots of its whole world. When
// a snapshot for tick T disagrees with the state the client predicted for T,
// the client restores the server's state and re-simulates T..now with the
// inputs it buffered for those ticks. A Smoother hides the jump on screen;
// it never feeds back into physics.
//
// Labels follow "state n + input n = state n+1": a snapshot labelled T is
// the server's state after it applied the input of tick T-1, and it is
// compared with the client's stored state for T, taken before the client
// applied input T.
//
// Nothing here reads a clock, starts a goroutine or uses a global random
// source: the caller drives time (see Session), so a run with a seed is
// reproducible.
package predict
