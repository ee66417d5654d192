package wire

// appendMask appends a non-zero ack mask (bit i: the snapshot view of tick
// base-1-i) as its byte count n, 1 to 8, then its n low bytes, little
// endian: the shortest, so that the top byte sent is not zero. A flag of
// the message says whether a mask follows; a zero mask is not sent.
func appendMask(b []byte, m uint64) []byte {
	n := 0
	for x := m; x != 0; x >>= 8 {
		n++
	}
	b = append(b, byte(n))
	for k := range n {
		b = append(b, byte(m>>(8*k)))
	}
	return b
}

// mask reads a non-zero ack mask in its one encoding.
func (r *reader) mask() uint64 {
	n := int(r.u8())
	if r.err == nil && (n < 1 || n > 8) {
		r.fail(invalid("an ack mask of %d bytes, want 1 to 8", n))
	}
	p := r.bytes(n)
	if r.err != nil {
		return 0
	}
	var m uint64
	for k, c := range p {
		m |= uint64(c) << (8 * k)
	}
	if p[n-1] == 0 {
		r.fail(invalid("an ack mask with a zero top byte")) // one encoding only
		return 0
	}
	return m
}
