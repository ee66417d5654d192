package physics

import (
	"encoding/binary"
	"errors"
	"math"
)

// Packed traces.
//
// A client keeps a trace for every tick it may rewind over, and in a busy
// scene a trace holds hundreds of body states and thousands of contact
// entries. As Go values a body state is 160 bytes and a contact entry 40,
// yet most of those bytes say nothing: a body's force and torque are zero
// after the step that spent them, its rest count and flags fit a byte or
// two, the indices of a sorted list differ from the one before by a little,
// a contact's bodies and feature fit a few bytes, and a contact between
// boxes that do not slide holds friction impulses of zero. AppendTrace
// writes a trace without those bytes and DecodeTrace reads it back, bit
// for bit, so that a client holds about twice as many ticks of traces in
// the same memory.

// Bits of a packed body state's first byte: the flags word's own bits
// (fields.go), and one more.
const (
	packForces = flagMask + 1 // the force and torque words follow (otherwise all six are +0)
	packMask   = flagMask | packForces
)

// packedWords is the float words of a body packed always: up to its force,
// the six words after them only with packForces.
const packedWords = bodyFloatWords - 6

// Bits of a packed contact's head (the low bits; the change of A is above
// them): which impulses follow (the others are +0).
const (
	packPn = 1 << iota
	packPt1
	packPt2
	packImpulseBits = 3
)

// errPacked is returned by DecodeTrace for bytes AppendTrace did not write.
var errPacked = errors.New("physics: a packed trace is cut short or malformed")

// AppendTrace appends tr to b, packed, and returns the extended slice.
// DecodeTrace reads it back.
func AppendTrace(b []byte, tr *Trace) []byte {
	b = binary.LittleEndian.AppendUint32(b, tr.Tick)
	b = appendIndices(b, tr.Active)
	b = appendIndices(b, tr.Bodies)
	b = appendStates(b, tr.States)
	b = appendIndices(b, tr.Touched)
	b = appendStates(b, tr.Before)
	b = binary.AppendUvarint(b, uint64(len(tr.Contacts)))
	prev := int64(0)
	for k := range tr.Contacts {
		c := &tr.Contacts[k]
		w := contactWords(c)
		head := uint64(0)
		for j := 0; j < 3; j++ {
			if w[3+j] != 0 {
				head |= 1 << j
			}
		}
		d := int64(c.A) - prev
		prev = int64(c.A)
		b = binary.AppendUvarint(b, zigzag(d)<<packImpulseBits|head)
		b = binary.AppendUvarint(b, uint64(uint32(c.B+1)))
		b = binary.AppendUvarint(b, uint64(c.Feature))
		for j := 0; j < 3; j++ {
			if w[3+j] != 0 {
				b = binary.LittleEndian.AppendUint64(b, w[3+j])
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(tr.Links)))
	for _, l := range tr.Links {
		b = binary.LittleEndian.AppendUint64(b, l)
	}
	return b
}

// DecodeTrace reads a trace that AppendTrace wrote from b into tr, reusing
// tr's buffers. It checks the length before every read and refuses bytes
// left over, but not that the values fit a world: World.ApplyTrace and
// World.Follow check what they need.
func DecodeTrace(b []byte, tr *Trace) error {
	r := packReader{b: b, ok: true}
	tr.Tick = r.fixed4()
	tr.Active = r.indices(tr.Active)
	tr.Bodies = r.indices(tr.Bodies)
	tr.States = r.states(tr.States)
	tr.Touched = r.indices(tr.Touched)
	tr.Before = r.states(tr.Before)
	n := r.count(3) // a head, B and the feature, and impulses of +0
	tr.Contacts = resize(tr.Contacts, n)
	prev := int64(0)
	for k := 0; k < n && r.ok; k++ {
		c := &tr.Contacts[k]
		head := r.uvarint()
		prev += unzigzag(head >> packImpulseBits)
		c.A = int32(prev)
		c.B = int32(uint32(r.uvarint())) - 1
		c.Feature = uint32(r.uvarint())
		var f [3]float64
		for j := range f {
			if head&(1<<j) != 0 {
				f[j] = math.Float64frombits(r.fixed8())
			}
		}
		c.Pn, c.Pt1, c.Pt2 = f[0], f[1], f[2]
	}
	n = r.count(8)
	tr.Links = resize(tr.Links, n)
	for k := 0; k < n && r.ok; k++ {
		tr.Links[k] = r.fixed8()
	}
	if !r.ok || len(r.b) != 0 {
		return errPacked
	}
	return nil
}

// appendIndices appends a list of body indices: its length, then each
// index as the signed change from the one before (from 0), which for a
// sorted list is a byte or two.
func appendIndices(b []byte, list []int32) []byte {
	b = binary.AppendUvarint(b, uint64(len(list)))
	prev := int64(0)
	for _, i := range list {
		b = binary.AppendUvarint(b, zigzag(int64(i)-prev))
		prev = int64(i)
	}
	return b
}

// appendStates appends body states: the count, then for each a byte of
// flags, its float words (without the force and torque when all six are
// +0) and its rest count.
func appendStates(b []byte, states []BodyState) []byte {
	b = binary.AppendUvarint(b, uint64(len(states)))
	for k := range states {
		w := bodyWords(&states[k])
		head := byte(w[bodyFloatWords+1]) // flagAsleep, flagDisabled
		words := w[:packedWords]
		for _, x := range w[packedWords:bodyFloatWords] {
			if x != 0 {
				head |= packForces
				words = w[:bodyFloatWords]
				break
			}
		}
		b = append(b, head)
		for _, x := range words {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		b = binary.AppendUvarint(b, w[bodyFloatWords])
	}
	return b
}

// zigzag maps a signed integer to an unsigned one, small for small
// magnitudes of either sign.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// unzigzag is the inverse of zigzag.
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// packReader reads a packed trace; a read past the end, or a malformed
// value, clears ok for good (the reads after it are meaningless, and
// DecodeTrace refuses the whole).
type packReader struct {
	b  []byte
	ok bool
}

// fixed4 reads 4 little-endian bytes.
func (r *packReader) fixed4() uint32 {
	if len(r.b) < 4 {
		r.ok = false
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

// fixed8 reads 8 little-endian bytes.
func (r *packReader) fixed8() uint64 {
	if len(r.b) < 8 {
		r.ok = false
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// uvarint reads an unsigned varint.
func (r *packReader) uvarint() uint64 {
	if len(r.b) > 0 && r.b[0] < 0x80 { // one byte: most of them
		v := uint64(r.b[0])
		r.b = r.b[1:]
		return v
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.ok = false
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length whose entries take at least min bytes each, and
// refuses one the bytes left cannot hold (before anything is allocated).
func (r *packReader) count(min int) int {
	n := r.uvarint()
	if !r.ok || n > uint64(len(r.b)/min) {
		r.ok = false
		return 0
	}
	return int(n)
}

// indices reads a list appendIndices wrote into list's buffer.
func (r *packReader) indices(list []int32) []int32 {
	n := r.count(1)
	list = resize(list, n)
	prev := int64(0)
	for k := 0; k < n && r.ok; k++ {
		prev += unzigzag(r.uvarint())
		list[k] = int32(prev)
	}
	return list
}

// states reads body states appendStates wrote into states' buffer.
func (r *packReader) states(states []BodyState) []BodyState {
	n := r.count(2 + packedWords*8)
	states = resize(states, n)
	var w [bodyWordCount]uint64
	for k := 0; k < n && r.ok; k++ {
		head := r.fixed1()
		if head&^packMask != 0 {
			r.ok = false
			break
		}
		words := packedWords
		if head&packForces != 0 {
			words = bodyFloatWords
		}
		w = [bodyWordCount]uint64{}
		for j := 0; j < words; j++ {
			w[j] = r.fixed8()
		}
		w[bodyFloatWords] = r.uvarint()
		w[bodyFloatWords+1] = uint64(head & flagMask)
		if w[bodyFloatWords] > math.MaxUint32 {
			r.ok = false
			break
		}
		setBodyWords(&states[k], &w)
	}
	return states
}

// fixed1 reads one byte.
func (r *packReader) fixed1() byte {
	if len(r.b) < 1 {
		r.ok = false
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}
