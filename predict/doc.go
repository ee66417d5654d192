// Package predict is the client: client-side prediction with server
// reconciliation for the physics cubes. It knows the server only through
// its messages (package wire); package session runs clients against a
// server in one process, and `cube client` over a network.
//
// The client samples an input every tick, records it (with the other
// players' inputs it knows or repeats) in a ring of tick.RingSize entries
// indexed by tick, keeps a full state every few ticks (keyframes) and the
// players' bodies every tick, steps its own world at once and sends every
// input the server may not have yet. The server (package server) applies
// every player's input in tick order and keeps each client in step in one
// of two ways: state sync, where a snapshot for tick T carries the bodies
// that changed against a view the client acknowledged (and, when the
// client's prediction cannot be trusted, the contacts of the islands
// around it); or input sync, where a relay carries only the inputs and
// events the server applied. With several players in state sync, a relay
// of the others' inputs comes with each snapshot too: the client replays
// with them at once (refresh), and holds a snapshot that overtook its
// relay until the relay comes, so that the snapshot's hash is compared
// with what the server's inputs give. When the server's hash for T
// differs from the client's, the client rebuilds its state at T (its own
// keyframe replayed to T with the server's bodies patched in, or the
// inputs relayed) and re-simulates T..now. A whole state travels only to
// start a client or to repair one, in fragments. Every disagreement is classified: input,
// server, remote (another player's input), nondeterminism (the client's
// state at the start was known to be the server's), or unverified. A
// Smoother hides the jump on screen; it never feeds back into physics.
//
// Labels follow "state n + input n = state n+1": a state labelled T is the
// world after the inputs of tick T-1, compared with the client's state for
// T, taken before it applied the inputs of tick T.
//
// Nothing here reads a clock or uses a global random source: the caller
// drives time (Client.Clock, Client.Step), so an in-process run with a
// seed is reproducible.
package predict
