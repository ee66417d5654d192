// Package protocol holds the protocol state both ends of a cube session
// keep besides the bytes (package wire lays those out): the sync modes,
// the snapshot views deltas are encoded against, the input chains that
// digest the inputs applied, and the count of rejected messages with the
// error that marks them. Tick arithmetic (wrap-safe order, the per-tick
// ring) lives beside it in netcode/tick.
package protocol
