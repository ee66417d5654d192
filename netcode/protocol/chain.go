package protocol

// SkippedMark is folded into an input chain for a tick the server did not
// simulate. It is not a valid input, so it never matches one.
const SkippedMark = 0xff

// ChainStart is an input chain's value before the first tick.
const ChainStart = 14695981039346656037

// FoldAll advances a chain of every player's inputs by one tick: each
// player's input in player order (SkippedMark for a skipped tick, once).
// A client whose own chain matches the server's but whose FoldAll chain
// does not predicted another player's input wrong. The inputs are any
// byte-sized type (game.Input), so that protocol needs nothing of game.
func FoldAll[I ~uint8](chain uint64, tick uint32, ins []I, skipped bool) uint64 {
	if skipped {
		return FoldInput(chain, tick, SkippedMark)
	}
	for _, in := range ins {
		chain = FoldInput(chain, tick, uint8(in))
	}
	return chain
}

// FoldInput advances an input chain by one tick: FNV-1a 64 over the
// previous value, the tick and the input (or SkippedMark). Server and client
// fold the same way, so equal chains mean equal input streams. A snapshot
// carries the chain of the inputs the server applied for its client.
func FoldInput(chain uint64, tick uint32, in uint8) uint64 {
	const prime = 1099511628211
	h := chain
	for _, b := range [...]byte{byte(tick), byte(tick >> 8), byte(tick >> 16), byte(tick >> 24), in} {
		h ^= uint64(b)
		h *= prime
	}
	return h
}
