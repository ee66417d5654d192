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

func TestAfter(t *testing.T) {
	for _, c := range []struct {
		a, b uint32
		want bool
	}{
		{1, 0, true}, {0, 1, false}, {5, 5, false},
		{0, math.MaxUint32, true}, {math.MaxUint32, 0, false}, // across the wrap
		{1 << 31, 1, true}, {1<<31 + 1, 1, false}, // 2³¹ apart: the sign flips
	} {
		if got := After(c.a, c.b); got != c.want {
			t.Errorf("After(%d, %d) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
