package wire

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

func TestCorpusDecodes(t *testing.T) {
	for _, m := range validMessages() {
		k, err := Kind(m.b)
		if err != nil {
			t.Fatalf("%s: Kind: %v", m.name, err)
		}
		if err := decodeAs(k, m.b); err != nil {
			t.Errorf("%s: %v", m.name, err)
		}
		if len(m.b) > MaxMessage {
			t.Errorf("%s: %d bytes", m.name, len(m.b))
		}
	}
}

// Every proper prefix of a valid message is refused as cut short or
// invalid, and a byte after its end is refused.
func TestPrefixesAndTrailingBytes(t *testing.T) {
	for _, m := range validMessages() {
		kind := m.b[0]
		for n := 0; n < len(m.b); n++ {
			err := decodeAs(kind, m.b[:n])
			if !errors.Is(err, ErrShort) && !errors.Is(err, ErrInvalid) {
				t.Errorf("%s cut to %d of %d bytes: %v, want ErrShort or ErrInvalid", m.name, n, len(m.b), err)
			}
		}
		long := append(bytes.Clone(m.b), 0)
		want := ErrInvalid
		if len(long) > MaxMessage {
			want = ErrTooBig
		}
		if err := decodeAs(kind, long); !errors.Is(err, want) {
			t.Errorf("%s with a byte more: %v, want %v", m.name, err, want)
		}
	}
}

func TestVersionKindAndSize(t *testing.T) {
	for _, m := range validMessages() {
		kind := m.b[0]
		for _, v := range []byte{0, Version - 1, Version + 1, 255} {
			b := bytes.Clone(m.b)
			b[1] = v
			if err := decodeAs(kind, b); !errors.Is(err, ErrVersion) {
				t.Errorf("%s as version %d: %v, want ErrVersion", m.name, v, err)
			}
			if _, err := Kind(b); !errors.Is(err, ErrVersion) {
				t.Errorf("Kind of %s as version %d: %v, want ErrVersion", m.name, v, err)
			}
		}
		for _, k := range []byte{0, lastKind + 1, 255} {
			b := bytes.Clone(m.b)
			b[0] = k
			if err := decodeAs(kind, b); !errors.Is(err, ErrKind) {
				t.Errorf("%s as kind %d: %v, want ErrKind", m.name, k, err)
			}
			if _, err := Kind(b); !errors.Is(err, ErrKind) {
				t.Errorf("Kind of %s as kind %d: %v, want ErrKind", m.name, k, err)
			}
		}
		for _, other := range allKinds {
			if other == kind {
				continue
			}
			if err := decodeAs(other, m.b); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s given to the decoder of kind %d: %v, want ErrInvalid", m.name, other, err)
			}
		}
		big := append(bytes.Clone(m.b), make([]byte, MaxMessage+1-len(m.b))...)
		if err := decodeAs(kind, big); !errors.Is(err, ErrTooBig) {
			t.Errorf("%s padded to %d bytes: %v, want ErrTooBig", m.name, len(big), err)
		}
	}
	for _, b := range [][]byte{nil, {KindInput}} {
		if _, err := Kind(b); !errors.Is(err, ErrShort) {
			t.Errorf("Kind(%v): %v, want ErrShort", b, err)
		}
	}
}

// The varints the decoders read: each value has one encoding of at most
// five bytes.
func TestVarints(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		want uint32
		err  error
	}{
		{"zero", spec{}.uv(0), 0, nil},
		{"127", spec{}.uv(127), 127, nil},
		{"128", spec{}.uv(128), 128, nil},
		{"2³²-1", spec{}.uv(math.MaxUint32), math.MaxUint32, nil},
		{"2³²", spec{}.uv(1 << 32), 0, ErrInvalid},
		{"2⁶⁴-1", spec{}.uv(math.MaxUint64), 0, ErrInvalid},
		{"cut", []byte{0x80}, 0, ErrShort},
		{"empty", nil, 0, ErrShort},
		{"zero in two bytes", []byte{0x80, 0x00}, 0, ErrInvalid},
		{"1 in two bytes", []byte{0x81, 0x00}, 0, ErrInvalid},
		{"2³²-1 in six bytes", []byte{0xff, 0xff, 0xff, 0xff, 0x8f, 0x00}, 0, ErrInvalid},
		{"zero in ten bytes", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0, ErrInvalid},
		{"eleven bytes", bytes.Repeat([]byte{0x80}, 11), 0, ErrInvalid},
	} {
		r := reader{b: c.b}
		got := r.uvarint()
		switch {
		case c.err == nil && (r.err != nil || got != c.want || r.off != len(c.b)):
			t.Errorf("%s: %d after %d bytes, %v; want %d after %d", c.name, got, r.off, r.err, c.want, len(c.b))
		case c.err != nil && !errors.Is(r.err, c.err):
			t.Errorf("%s: %d, %v; want %v", c.name, got, r.err, c.err)
		}
	}
	for _, v := range []int32{0, 1, -1, 63, -64, 64, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1, math.MinInt32 + 1} {
		b := appendZigzag(nil, v)
		if want := spec(nil).zz(v); !bytes.Equal(b, want) {
			t.Errorf("appendZigzag(%d) = %x, want %x", v, b, want)
		}
		r := reader{b: b}
		if got := r.zigzag(); got != v || r.err != nil || r.off != len(b) {
			t.Errorf("zigzag %d: got %d, %v", v, got, r.err)
		}
		if uvarintLen(uint64(uint32(v))) != len(spec(nil).uv(uint64(uint32(v)))) {
			t.Errorf("uvarintLen(%d) wrong", uint32(v))
		}
	}
}
