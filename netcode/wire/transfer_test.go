package wire

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// scriptedState returns the state of scene name after n scripted ticks.
func scriptedState(t testing.TB, name string, n int) physics.State {
	t.Helper()
	w, sc := game.MustBuild(name)
	if err := sc.RunScript(w, n); err != nil {
		t.Fatal(err)
	}
	var s physics.State
	w.Save(&s)
	return s
}

func TestTransferRoundTrip(t *testing.T) {
	st := scriptedState(t, "arena", 200)
	if len(st.Contacts) == 0 {
		t.Fatal("the arena after 200 ticks has no contacts: a weak test")
	}
	ts := TransferState{Chain: math.MaxUint64, Events: 3, Skipped: math.MaxUint32, State: st}
	b := AppendTransfer([]byte("prefix"), &ts)[len("prefix"):]
	var got TransferState
	nb, nc := len(st.Bodies), len(st.Contacts)
	if err := DecodeTransfer(b, &got, nb, nc); err != nil {
		t.Fatal(err)
	}
	if got.Chain != ts.Chain || got.Events != ts.Events || got.Skipped != ts.Skipped || !got.State.Equal(&st) {
		t.Fatal("decoded transfer differs")
	}
	// Decoding again into the same destination reuses its buffers.
	if n := testing.AllocsPerRun(10, func() {
		if err := DecodeTransfer(b, &got, nb, nc); err != nil {
			panic(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
	for n := 0; n < len(b); n++ {
		var d TransferState
		if err := DecodeTransfer(b[:n], &d, nb, nc); !errors.Is(err, ErrShort) {
			t.Fatalf("cut to %d of %d bytes: %v, want ErrShort", n, len(b), err)
		}
	}
	for _, extra := range [][]byte{{0}, {1, 2, 3}} {
		if err := DecodeTransfer(append(bytes.Clone(b), extra...), &got, nb, nc); !errors.Is(err, ErrInvalid) {
			t.Errorf("%d bytes more: %v, want ErrInvalid", len(extra), err)
		}
	}
	if err := DecodeTransfer(b, &got, nb-1, nc); !errors.Is(err, ErrInvalid) {
		t.Errorf("a body more than allowed: %v", err)
	}
	if err := DecodeTransfer(b, &got, nb, nc-1); !errors.Is(err, ErrInvalid) {
		t.Errorf("a contact more than allowed: %v", err)
	}
}

// A transfer cut into fragments comes back whole from its fragments in any
// order.
func TestFragments(t *testing.T) {
	st := scriptedState(t, "cubes", 30)
	big := AppendTransfer(nil, &TransferState{Chain: 1, State: st})
	r := newRand(41)
	for _, data := range [][]byte{big, big[:1], big[:FragmentBytes], big[:FragmentBytes+1], big[:3*FragmentBytes]} {
		count := FragmentCount(len(data))
		if want := (len(data) + FragmentBytes - 1) / FragmentBytes; count != want || count < 1 {
			t.Fatalf("FragmentCount(%d) = %d", len(data), count)
		}
		out := make([]byte, len(data))
		got := make([]bool, count)
		var m Fragment
		for _, i := range r.Perm(count) {
			b := AppendFragment(nil, 1234, data, i)
			switch {
			case len(b) > MaxMessage:
				t.Fatalf("fragment %d: %d bytes", i, len(b))
			case i < count-1 && len(b) != MaxMessage:
				t.Fatalf("fragment %d of %d: %d bytes, want %d", i, count, len(b), MaxMessage)
			}
			if err := DecodeFragment(b, &m); err != nil {
				t.Fatalf("fragment %d of %d: %v", i, count, err)
			}
			if m.Tick != 1234 || int(m.Index) != i || int(m.Count) != count || int(m.Size) != len(data) {
				t.Fatalf("fragment %d: %+v", i, m)
			}
			if got[i] {
				t.Fatalf("fragment %d twice", i)
			}
			got[i] = true
			copy(out[int(m.Index)*FragmentBytes:], m.Data)
			if want := spec(msg(KindFragment).u32(1234).u16(uint16(i)).u16(uint16(count)).u32(uint32(len(data)))); !bytes.HasPrefix(b, want) {
				t.Fatalf("fragment %d: header %x, want (doc.go) %x", i, b[:len(want)], want)
			}
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("%d bytes in %d fragments: reassembled bytes differ", len(data), count)
		}
	}
	var back TransferState
	if err := DecodeTransfer(big, &back, len(st.Bodies), len(st.Contacts)); err != nil || !back.State.Equal(&st) {
		t.Fatalf("the transfer does not decode: %v", err)
	}
	// The largest transfer: MaxFragments fragments.
	huge := make([]byte, MaxFragments*FragmentBytes)
	var m Fragment
	for _, i := range []int{0, MaxFragments - 1} {
		if err := DecodeFragment(AppendFragment(nil, 0, huge, i), &m); err != nil || int(m.Count) != MaxFragments {
			t.Errorf("fragment %d of the largest transfer: %v", i, err)
		}
	}
}

func TestHave(t *testing.T) {
	r := newRand(42)
	var got Have
	for _, count := range []int{1, 2, 7, 8, 9, 15, 16, 17, 100, MaxFragments - 1, MaxFragments} {
		bits := make([]byte, (count+7)/8)
		for i := 0; i < count; i++ {
			if r.IntN(2) == 0 {
				bits[i/8] |= 1 << (i % 8)
			}
		}
		m := Have{Tick: r.Uint32(), Count: uint16(count), Got: bits}
		b := AppendHave(nil, &m)
		if want := msg(KindHave).u32(m.Tick).u16(m.Count).u8(bits...); !bytes.Equal(b, want) {
			t.Errorf("%d fragments: encoded %x, want (doc.go) %x", count, b, want)
		}
		if err := DecodeHave(b, &got); err != nil {
			t.Fatalf("%d fragments: %v", count, err)
		}
		if got.Tick != m.Tick || got.Count != m.Count || !bytes.Equal(got.Got, bits) {
			t.Errorf("%d fragments: decoded %+v", count, got)
		}
	}
}

func TestFragmentHaveInvalid(t *testing.T) {
	frag := func(index, count uint16, size uint32, data int) []byte {
		return msg(KindFragment).u32(1).u16(index).u16(count).u32(size).u8(make([]byte, data)...)
	}
	have := func(count uint16, bits ...byte) []byte { return msg(KindHave).u32(1).u16(count).u8(bits...) }
	for _, c := range []struct {
		name string
		b    []byte
		err  error
	}{
		{"valid last", frag(1, 2, FragmentBytes+5, 5), nil},
		{"valid first", frag(0, 2, FragmentBytes+5, FragmentBytes), nil},
		{"0 fragments", frag(0, 0, 0, 0), ErrInvalid},
		{"0 bytes", frag(0, 1, 0, 0), ErrInvalid},
		{"too many fragments", frag(0, MaxFragments+1, (MaxFragments+1)*FragmentBytes, FragmentBytes), ErrInvalid},
		{"index past the count", frag(2, 2, FragmentBytes+5, 5), ErrInvalid},
		{"size of one fragment, count 2", frag(1, 2, FragmentBytes, 0), ErrInvalid},
		{"size of three fragments, count 2", frag(1, 2, 2*FragmentBytes+1, 1), ErrInvalid},
		{"size 2³²-1", frag(0, 1, math.MaxUint32, 0), ErrInvalid},
		{"size 2³¹", frag(0, 1, 1<<31, 0), ErrInvalid},
		{"last fragment short", frag(1, 2, FragmentBytes+5, 4), ErrShort},
		{"last fragment long", frag(1, 2, FragmentBytes+5, 6), ErrInvalid},
		{"first fragment short", frag(0, 2, FragmentBytes+5, 5), ErrShort},
		{"0 fragments had", have(0), ErrInvalid},
		{"too many fragments had", have(MaxFragments+1, make([]byte, (MaxFragments+8)/8)...), ErrInvalid},
		{"a bit past the count", have(3, 0x08), ErrInvalid},
		{"the top bit past the count", have(9, 0xff, 0x80), ErrInvalid},
		{"every bit of 9", have(9, 0xff, 0x01), nil},
		{"bitmap short", have(9, 0xff), ErrShort},
		{"bitmap long", have(8, 0xff, 0), ErrInvalid},
	} {
		var err error
		f, h := Fragment{Tick: 99}, Have{Tick: 99}
		if c.b[0] == KindFragment {
			err = DecodeFragment(c.b, &f)
		} else {
			err = DecodeHave(c.b, &h)
		}
		switch {
		case c.err == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		case c.err != nil && (f.Tick != 99 || h.Tick != 99):
			t.Errorf("%s: the destination was changed", c.name)
		}
	}
}
