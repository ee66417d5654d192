package wire

// SkippedMark is folded into an input chain for a tick the server did not
// simulate. It is not a valid input, so it never matches one.
const SkippedMark = 0xff

// ChainStart is an input chain's value before the first tick.
const ChainStart = 14695981039346656037

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
