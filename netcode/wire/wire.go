package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Version is the protocol version this package writes and reads.
const Version byte = 7

// Message kinds.
const (
	KindHello    byte = 1
	KindWelcome  byte = 2
	KindInput    byte = 3
	KindSnapshot byte = 4
	KindRelay    byte = 5
	KindFragment byte = 6
	KindHave     byte = 7
	// KindRepairHashes and KindRepairWant open a repair (repair.go).
	KindRepairHashes byte = 8
	KindRepairWant   byte = 9
	lastKind              = KindRepairWant
)

// Limits.
const (
	// MaxMessage bounds every message: under a typical path MTU.
	MaxMessage = 1200
	// MaxTicks bounds the ticks one Input or Relay covers: the client's
	// ring.
	MaxTicks = 1024
)

// Sentinel errors of the decoders; test with errors.Is.
var (
	ErrShort   = errors.New("wire: message cut short")
	ErrKind    = errors.New("wire: unknown message kind")
	ErrVersion = errors.New("wire: unsupported protocol version")
	ErrInvalid = errors.New("wire: invalid message")
	ErrTooBig  = errors.New("wire: message larger than 1200 bytes")
)

// Kind returns the kind byte of message b after checking the version.
func Kind(b []byte) (byte, error) {
	if len(b) < 2 {
		return 0, ErrShort
	}
	if b[1] != Version {
		return 0, fmt.Errorf("%w %d, this program speaks %d", ErrVersion, b[1], Version)
	}
	if b[0] == 0 || b[0] > lastKind {
		return 0, fmt.Errorf("%w %d", ErrKind, b[0])
	}
	return b[0], nil
}

// invalid returns an ErrInvalid error with a reason.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// reader reads a message front to back; the first error sticks and every
// later read returns zero.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if len(r.b)-r.off < n {
		r.fail(ErrShort)
		return false
	}
	return true
}

func (r *reader) u8() uint8 {
	if !r.need(1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u16() uint16 {
	if !r.need(2) {
		return 0
	}
	v := binary.LittleEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u32() uint32 {
	if !r.need(4) {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *reader) u64() uint64 {
	if !r.need(8) {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v
}

// uvarint reads an unsigned varint of at most 32 bits in its one encoding:
// binary.Uvarint also takes overlong ones (0x80 0x00 for 0, up to ten
// bytes), which would give a value two encodings and a 32-bit value more
// than the five bytes doc.go allows.
func (r *reader) uvarint() uint32 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	switch {
	case n == 0:
		r.fail(ErrShort)
		return 0
	case n < 0 || v > 1<<32-1:
		r.fail(invalid("varint out of range"))
		return 0
	case n > 1 && r.b[r.off+n-1] == 0:
		r.fail(invalid("varint with a zero last byte")) // overlong
		return 0
	}
	r.off += n
	return uint32(v)
}

// zigzag reads a signed varint of at most 32 bits.
func (r *reader) zigzag() int32 {
	u := r.uvarint()
	return int32(u>>1) ^ -int32(u&1)
}

// bytes returns the next n bytes.
func (r *reader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

// end fails unless every byte was read.
func (r *reader) end() error {
	if r.err == nil && r.off != len(r.b) {
		r.fail(invalid("%d bytes after the end", len(r.b)-r.off))
	}
	return r.err
}

// start checks the size, the version and the kind of b and returns a
// reader past the header.
func start(b []byte, kind byte) reader {
	r := reader{b: b, off: 2}
	k, err := Kind(b)
	switch {
	case err != nil:
		r.err = err
	case len(b) > MaxMessage:
		r.err = fmt.Errorf("%w: %d bytes", ErrTooBig, len(b))
	case k != kind:
		r.err = invalid("a message of kind %d, want %d", k, kind)
	}
	return r
}

// appendZigzag appends v as a zigzag varint.
func appendZigzag(b []byte, v int32) []byte {
	return binary.AppendUvarint(b, uint64(uint32(v<<1)^uint32(v>>31)))
}

// zigzagLen returns the encoded size of v as appendZigzag writes it.
func zigzagLen(v int32) int { return uvarintLen(uint64(uint32(v<<1) ^ uint32(v>>31))) }

// uvarintLen returns the encoded size of x.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}
