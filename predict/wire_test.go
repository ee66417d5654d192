package predict

import (
	"bytes"
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
)

func inputsOf(s string) []game.Input {
	var in []game.Input
	for _, c := range s {
		in = append(in, game.Input(c-'a')&game.InputMask)
	}
	return in
}

func TestInputRoundTrip(t *testing.T) {
	for _, in := range [][]game.Input{
		inputsOf("a"),
		inputsOf("bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbcdef"),
		inputsOf("abababababababab"),
		inputsOf("aaaaaaa" + "bbbbbbbb" + "c"), // runs of 7 (one byte) and 8 (uvarint)
	} {
		b, first := AppendInput(nil, 4294967290, in)
		if first != 4294967290 {
			t.Fatalf("first = %d, nothing should have been dropped", first)
		}
		var m InputMsg
		if err := DecodeInput(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.First != first || len(m.Inputs) != len(in) {
			t.Fatalf("got first %d, %d inputs; want %d, %d", m.First, len(m.Inputs), first, len(in))
		}
		for i := range in {
			if m.Inputs[i] != in[i] {
				t.Fatalf("input %d = %v, want %v", i, m.Inputs[i], in[i])
			}
		}
	}
}

func TestInputRunsAreCompact(t *testing.T) {
	// 100 ticks of one held key: the header, then one run byte and one
	// uvarint byte (100-4 = 96 < 128).
	in := make([]game.Input, 100)
	for i := range in {
		in[i] = game.Forward
	}
	b, _ := AppendInput(nil, 0, in)
	if len(b) != inputHeader+2 {
		t.Fatalf("100 equal inputs took %d bytes, want %d", len(b), inputHeader+2)
	}
}

func TestInputMessageIsBounded(t *testing.T) {
	// Alternating inputs cost a byte each; 2000 of them cannot all fit.
	in := make([]game.Input, 2000)
	for i := range in {
		in[i] = game.Input(i % 2)
	}
	b, first := AppendInput(nil, 100, in)
	if len(b) > MaxInputMessage {
		t.Fatalf("message of %d bytes", len(b))
	}
	var m InputMsg
	if err := DecodeInput(b, &m); err != nil {
		t.Fatal(err)
	}
	// The newest inputs are kept: the message ends at tick 100+2000-1.
	if last := m.First + uint32(len(m.Inputs)) - 1; last != 2099 || first != m.First {
		t.Fatalf("message covers %d..%d, want it to end at 2099", m.First, last)
	}
	if len(m.Inputs) > RingSize {
		t.Fatalf("%d inputs, more than the ring", len(m.Inputs))
	}
	for i, v := range m.Inputs {
		if v != in[len(in)-len(m.Inputs)+i] {
			t.Fatalf("input %d differs", i)
		}
	}
}

func sampleStateMsg(t testing.TB) []byte {
	w := mustArena()
	if err := arenaScene.RunScript(w, 140); err != nil {
		t.Fatal(err)
	}
	m := StateMsg{Tick: w.Tick(), Hash: w.Hash(), Chain: 42, Events: 3, Skipped: 7}
	w.Save(&m.State)
	return AppendState(nil, &m)
}

func TestStateRoundTrip(t *testing.T) {
	b := sampleStateMsg(t)
	var m StateMsg
	if err := DecodeState(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Tick != 140 || m.Chain != 42 || m.Events != 3 || m.Skipped != 7 || m.Hash != m.State.Hash() {
		t.Fatalf("decoded %+v", m)
	}
	if re := AppendState(nil, &m); !bytes.Equal(re, b) {
		t.Fatal("re-encoding differs")
	}
}

func TestEveryPrefixIsRefused(t *testing.T) {
	in, _ := AppendInput(nil, 9, inputsOf("aaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbcdc"))
	st := sampleStateMsg(t)
	for i := 0; i < len(in); i++ {
		var m InputMsg
		if err := DecodeInput(in[:i], &m); err == nil {
			t.Fatalf("input prefix of %d bytes accepted", i)
		}
	}
	for i := 0; i < len(st); i++ {
		var m StateMsg
		if err := DecodeState(st[:i], &m); err == nil {
			t.Fatalf("state prefix of %d bytes accepted", i)
		}
	}
}

func TestInvalidMessages(t *testing.T) {
	good, _ := AppendInput(nil, 9, inputsOf("aab"))
	st := sampleStateMsg(t)
	mod := func(b []byte, f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }
	cases := []struct {
		name  string
		b     []byte
		state bool
		want  error
	}{
		{"empty", nil, false, ErrShort},
		{"unknown kind", []byte{9, version, 0, 0}, false, ErrKind},
		{"future version", []byte{1, version + 1, 0, 0}, false, ErrVersion},
		{"state given to the input decoder", st, false, ErrInvalid},
		{"input given to the state decoder", good, true, ErrInvalid},
		{"zero inputs", mod(good, func(b []byte) []byte { b[6], b[7] = 0, 0; return b[:inputHeader] }), false, ErrInvalid},
		{"too many inputs", mod(good, func(b []byte) []byte { b[6], b[7] = 0xff, 0xff; return b }), false, ErrInvalid},
		{"runs longer than the count", mod(good, func(b []byte) []byte { b[6] = 2; return b }), false, ErrInvalid},
		{"bytes after the runs", append(append([]byte(nil), good...), 0), false, ErrInvalid},
		{"huge uvarint run", mod(good, func(b []byte) []byte {
			return append(b[:inputHeader], 3<<6, 0xff, 0xff, 0xff, 0xff, 0x0f)
		}), false, ErrInvalid},
		{"oversized message", append([]byte{MsgInput, version}, make([]byte, MaxInputMessage)...), false, ErrInvalid},
		{"state hash wrong", mod(st, func(b []byte) []byte { b[6] ^= 1; return b }), true, ErrInvalid},
		{"state tick mislabelled", mod(st, func(b []byte) []byte { b[2] ^= 1; return b }), true, ErrInvalid},
		{"state body count huge", mod(st, func(b []byte) []byte { b[stateHeader+7] = 0x7f; return b }), true, ErrInvalid},
		{"state trailing byte", append(append([]byte(nil), st...), 0), true, ErrInvalid},
	}
	for _, c := range cases {
		var err error
		if c.state {
			var m StateMsg
			err = DecodeState(c.b, &m)
		} else {
			var m InputMsg
			err = DecodeInput(c.b, &m)
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestDecodeDoesNotAllocate(t *testing.T) {
	in, _ := AppendInput(nil, 9, inputsOf("aaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbcdc"))
	st := sampleStateMsg(t)
	var im InputMsg
	var sm StateMsg
	if DecodeInput(in, &im) != nil || DecodeState(st, &sm) != nil {
		t.Fatal("decode failed")
	}
	if a := testing.AllocsPerRun(100, func() {
		_ = DecodeInput(in, &im)
		_ = DecodeState(st, &sm)
	}); a != 0 {
		t.Fatalf("decoding allocates %v times", a)
	}
}

func FuzzDecodeInput(f *testing.F) {
	good, _ := AppendInput(nil, 9, inputsOf("aaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbcdc"))
	f.Add(good)
	f.Add([]byte{1, 1, 0, 0, 0, 0, 1, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var m InputMsg
		if err := DecodeInput(b, &m); err != nil {
			return
		}
		if len(m.Inputs) == 0 || len(m.Inputs) > RingSize {
			t.Fatalf("%d inputs accepted", len(m.Inputs))
		}
		for _, in := range m.Inputs {
			if in&^game.InputMask != 0 {
				t.Fatalf("input %#x has bits outside the mask", in)
			}
		}
		// Re-encoding what decoded gives a message that decodes the same.
		re, first := AppendInput(nil, m.First, m.Inputs)
		var m2 InputMsg
		if err := DecodeInput(re, &m2); err != nil || first != m.First || len(m2.Inputs) != len(m.Inputs) {
			t.Fatalf("round trip failed: %v", err)
		}
	})
}

func FuzzDecodeState(f *testing.F) {
	f.Add(sampleStateMsg(f))
	f.Add([]byte{2, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var m StateMsg
		if err := DecodeState(b, &m); err != nil {
			return
		}
		if re := AppendState(nil, &m); !bytes.Equal(re, b) {
			t.Fatal("a decoded message re-encodes differently")
		}
	})
}

func TestAfterIsWrapSafe(t *testing.T) {
	cases := []struct {
		a, b uint32
		want bool
	}{
		{1, 0, true}, {0, 1, false}, {5, 5, false},
		{0, 4294967295, true}, {4294967295, 0, false}, {10, 4294967290, true},
	}
	for _, c := range cases {
		if got := After(c.a, c.b); got != c.want {
			t.Errorf("After(%d, %d) = %v", c.a, c.b, got)
		}
	}
}

func TestRingSlotHoldsOnlyItsTick(t *testing.T) {
	var r ring[int]
	*r.put(5) = 50
	if v, ok := r.get(5); !ok || *v != 50 {
		t.Fatal("stored value not found")
	}
	if _, ok := r.get(5 + RingSize); ok {
		t.Fatal("slot of tick 5 answered for tick 5+RingSize")
	}
	*r.put(5 + RingSize) = 60
	if _, ok := r.get(5); ok {
		t.Fatal("overwritten slot still answers for the old tick")
	}
}
