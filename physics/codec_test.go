package physics

import (
	"bytes"
	"errors"
	"testing"
)

func sampleState(t testing.TB) State {
	w := mustArena()
	if err := runArena(w, 140); err != nil {
		t.Fatal(err)
	}
	var s State
	w.Save(&s)
	return s
}

func TestStateRoundTrip(t *testing.T) {
	s := sampleState(t)
	b := AppendState([]byte("prefix"), &s)
	if len(b) != 6+s.EncodedSize() {
		t.Fatalf("encoded %d bytes, EncodedSize says %d", len(b)-6, s.EncodedSize())
	}
	var got State
	n, err := DecodeState(b[6:], &got, 64, 1024)
	if err != nil || n != s.EncodedSize() {
		t.Fatalf("decode: n=%d err=%v", n, err)
	}
	if !got.Equal(&s) {
		t.Fatalf("round trip differs: %v", Diff(&got, &s, 3))
	}
}

func TestStateDecodeEveryPrefixFails(t *testing.T) {
	s := sampleState(t)
	b := AppendState(nil, &s)
	var got State
	for i := 0; i < len(b); i++ {
		if _, err := DecodeState(b[:i], &got, 64, 1024); !errors.Is(err, ErrShort) {
			t.Fatalf("prefix of %d bytes: err = %v, want ErrShort", i, err)
		}
	}
}

func TestStateDecodeRefusesHugeCounts(t *testing.T) {
	s := sampleState(t)
	b := AppendState(nil, &s)
	b[4], b[5], b[6], b[7] = 0xff, 0xff, 0xff, 0x7f
	var got State
	if _, err := DecodeState(b, &got, 64, 1024); err == nil || errors.Is(err, ErrShort) {
		t.Fatalf("a body count of 2³¹ gave %v, want a bound error", err)
	}
	if cap(got.Bodies) != 0 {
		t.Fatal("allocated before checking the bound")
	}
}

func TestStateDecodeDoesNotAllocateWhenSized(t *testing.T) {
	s := sampleState(t)
	b := AppendState(nil, &s)
	var got State
	if _, err := DecodeState(b, &got, 64, 1024); err != nil {
		t.Fatal(err)
	}
	var derr error
	if a := testing.AllocsPerRun(50, func() { _, derr = DecodeState(b, &got, 64, 1024) }); a != 0 {
		t.Fatalf("decode into a sized state allocates %v times", a)
	}
	if derr != nil {
		t.Fatal(derr)
	}
}

func FuzzDecodeState(f *testing.F) {
	s := sampleState(f)
	f.Add(AppendState(nil, &s))
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got State
		n, err := DecodeState(b, &got, 64, 1024)
		if err != nil {
			return
		}
		if n > len(b) {
			t.Fatalf("read %d of %d bytes", n, len(b))
		}
		// Whatever decodes re-encodes to the same bytes.
		if re := AppendState(nil, &got); !bytes.Equal(re, b[:n]) {
			t.Fatalf("re-encoding differs")
		}
		// And a world either takes it or refuses it cleanly.
		w := mustArena()
		if err := w.Restore(&got); err == nil {
			w.Step()
		}
	})
}
