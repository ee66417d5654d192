package physics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Encoded sizes, in bytes.
const (
	bodyBytes    = bodyFloatWords*8 + 2*4
	contactBytes = 3*4 + (contactWordCount-3)*8
)

// ErrShort is returned when an encoding ends before the value it announces.
var ErrShort = errors.New("physics: state encoding is cut short")

// EncodedSize returns the number of bytes AppendState writes for s.
func (s *State) EncodedSize() int {
	return 4 + 4 + len(s.Bodies)*bodyBytes + 4 + len(s.Contacts)*contactBytes
}

// AppendState appends the exact bits of s to b, little endian: the tick,
// the body count and each body's 19 float64 words (position, rotation w x y
// z, velocity, angular velocity, force, torque) followed by its rest count
// and flags as uint32, then the contact count and each contact's A, B and
// feature as uint32 and its three impulses as float64. Hash feeds the same
// bytes to FNV-1a.
func AppendState(b []byte, s *State) []byte {
	b = binary.LittleEndian.AppendUint32(b, s.Tick)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.Bodies)))
	for i := range s.Bodies {
		w := bodyWords(&s.Bodies[i])
		for _, x := range w[:bodyFloatWords] {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(w[bodyFloatWords]))
		b = binary.LittleEndian.AppendUint32(b, uint32(w[bodyFloatWords+1]))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.Contacts)))
	for i := range s.Contacts {
		w := contactWords(&s.Contacts[i])
		for _, x := range w[:3] {
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
		for _, x := range w[3:] {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
	}
	return b
}

// DecodeState reads a state written by AppendState from the start of b into
// s, reusing s's buffers, and returns the number of bytes read. It refuses
// more than maxBodies bodies or maxContacts contacts before allocating
// anything, checks the length before every read and refuses unknown body
// flag bits. It checks only the layout: World.Restore checks that the values
// fit a world.
func DecodeState(b []byte, s *State, maxBodies, maxContacts int) (int, error) {
	if len(b) < 8 {
		return 0, ErrShort
	}
	tick := binary.LittleEndian.Uint32(b)
	nb := binary.LittleEndian.Uint32(b[4:])
	if uint64(nb) > uint64(maxBodies) {
		return 0, fmt.Errorf("physics: state has %d bodies, at most %d allowed", nb, maxBodies)
	}
	off := 8
	if len(b)-off < int(nb)*bodyBytes+4 {
		return 0, ErrShort
	}
	for i := 0; i < int(nb); i++ {
		if f := binary.LittleEndian.Uint32(b[off+i*bodyBytes+bodyFloatWords*8+4:]); f&^flagMask != 0 {
			return 0, fmt.Errorf("physics: state body %d has unknown flags %#x", i, f)
		}
	}
	s.Tick = tick
	s.Bodies = resize(s.Bodies, int(nb))
	var w [bodyWordCount]uint64
	for i := range s.Bodies {
		for k := 0; k < bodyFloatWords; k++ {
			w[k] = binary.LittleEndian.Uint64(b[off:])
			off += 8
		}
		w[bodyFloatWords] = uint64(binary.LittleEndian.Uint32(b[off:]))
		w[bodyFloatWords+1] = uint64(binary.LittleEndian.Uint32(b[off+4:]))
		off += 8
		setBodyWords(&s.Bodies[i], &w)
	}
	nc := binary.LittleEndian.Uint32(b[off:])
	off += 4
	if uint64(nc) > uint64(maxContacts) {
		return 0, fmt.Errorf("physics: state has %d contacts, at most %d allowed", nc, maxContacts)
	}
	if len(b)-off < int(nc)*contactBytes {
		return 0, ErrShort
	}
	s.Contacts = resize(s.Contacts, int(nc))
	for i := range s.Contacts {
		c := &s.Contacts[i]
		c.A = int32(binary.LittleEndian.Uint32(b[off:]))
		c.B = int32(binary.LittleEndian.Uint32(b[off+4:]))
		c.Feature = binary.LittleEndian.Uint32(b[off+8:])
		off += 12
		var f [3]float64
		for k := range f {
			f[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[off:]))
			off += 8
		}
		c.Pn, c.Pt1, c.Pt2 = f[0], f[1], f[2]
	}
	return off, nil
}

// resize returns s with length n, reusing its array when large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
