package predict

// skippedMark is folded into the input chain for a tick the server did not
// simulate. It is not a valid input, so it never matches one.
const skippedMark = 0xff

// foldInput advances an input chain by one tick: FNV-1a 64 over the
// previous value, the tick and the input (or skippedMark). Server and client
// fold the same way, so equal chains mean equal input streams.
func foldInput(chain uint64, tick uint32, in uint8) uint64 {
	const prime = 1099511628211
	h := chain
	for _, b := range [...]byte{byte(tick), byte(tick >> 8), byte(tick >> 16), byte(tick >> 24), in} {
		h ^= uint64(b)
		h *= prime
	}
	return h
}

// chainStart is the chain value at the first tick of a session.
const chainStart = 14695981039346656037
