package wire

import (
	"bytes"
	"testing"

	"github.com/cubelab/cube/physics"
)

// plainXOR is appendXOR written from its definition, a byte at a time: the
// group mask, the nibbles of the flagged groups' words, then each of
// their words' significant bytes, low first.
func plainXOR(b []byte, cur, base *[physics.BodyWordCount]uint64, first int) []byte {
	mask := byte(0)
	var nibs []byte
	for g := first; g < len(wordGroups); g++ {
		for k := wordGroups[g].from; k < wordGroups[g].to; k++ {
			if cur[k] != base[k] {
				mask |= 1 << g
			}
		}
	}
	b = append(b, mask)
	var words []byte
	for g := first; g < len(wordGroups); g++ {
		if mask&(1<<g) == 0 {
			continue
		}
		for k := wordGroups[g].from; k < wordGroups[g].to; k++ {
			x := cur[k] ^ base[k]
			n := byte(0)
			for ; x != 0; x >>= 8 {
				words = append(words, byte(x))
				n++
			}
			nibs = append(nibs, n)
		}
	}
	for i := 0; i < len(nibs); i += 2 {
		c := nibs[i]
		if i+1 < len(nibs) {
			c |= nibs[i+1] << 4
		}
		b = append(b, c)
	}
	return append(b, words...)
}

// TestAppendXORIsItsDefinition: appendXOR, which writes whole words and
// cuts them back, gives the bytes of the plain definition for words that
// differ in 0 to 8 bytes, in every group, from every first group.
func TestAppendXORIsItsDefinition(t *testing.T) {
	r := newRand(73)
	for trial := 0; trial < 2000; trial++ {
		var cur, base [physics.BodyWordCount]uint64
		for k := range cur {
			base[k] = r.Uint64()
			cur[k] = base[k]
			if r.IntN(3) > 0 {
				n := r.IntN(9) // significant bytes of the difference
				var x uint64
				if n > 0 {
					x = uint64(1)<<(8*n-1) | r.Uint64()>>(64-8*n+1)
				}
				cur[k] ^= x
			}
		}
		first := r.IntN(len(wordGroups))
		prefix := []byte{0xAB}
		got := appendXOR(append([]byte(nil), prefix...), &cur, &base, first)
		want := plainXOR(append([]byte(nil), prefix...), &cur, &base, first)
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d, first group %d:\n got %x\nwant %x", trial, first, got, want)
		}
		var back [physics.BodyWordCount]uint64
		rd := reader{b: got[1:]}
		back = base
		rd.xor(&back, &base, first)
		if rd.err != nil {
			t.Fatalf("trial %d: %v", trial, rd.err)
		}
		for k := wordGroups[first].from; k < physics.BodyWordCount; k++ {
			if back[k] != cur[k] {
				t.Fatalf("trial %d: word %d reads back %x, want %x", trial, k, back[k], cur[k])
			}
		}
	}
}
