package wire

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/cubelab/cube/game"
)

// alternating returns n inputs that change every tick: a run each.
func alternating(n int) []game.Input {
	ins := make([]game.Input, n)
	for i := range ins {
		ins[i] = game.Input(i%2) * game.Forward
	}
	return ins
}

func repeated(in game.Input, n int) []game.Input {
	ins := make([]game.Input, n)
	for i := range ins {
		ins[i] = in
	}
	return ins
}

func TestInputRoundTrip(t *testing.T) {
	every := make([]game.Input, game.InputMask+1)
	for i := range every {
		every[i] = game.Input(i)
	}
	r := newRand(1)
	var cases []Input
	for _, tick := range []uint32{0, 1, math.MaxUint32 - 1, math.MaxUint32} {
		for flags := uint8(0); flags <= inputFlags; flags++ {
			cases = append(cases, Input{Player: flags, Flags: flags, Ack: tick, First: ^tick, Inputs: []game.Input{game.Input(flags)}})
		}
	}
	for _, ins := range [][]game.Input{
		every, alternating(MaxTicks), repeated(game.InputMask, MaxTicks), repeated(0, 1),
		// runs across the short and the extended forms and the varint's first byte
		slices.Concat(repeated(1, 1), repeated(2, 2), repeated(3, 3), repeated(4, 4), repeated(5, 5),
			repeated(6, 131), repeated(7, 132), repeated(8, 133)),
		randInputs(r, 1), randInputs(r, 64), randInputs(r, 500), randInputs(r, MaxTicks),
	} {
		cases = append(cases, Input{Player: 255, Flags: AckValid, Ack: 1, First: 2, Inputs: ins})
	}
	for _, held := range []uint64{1, 0x80, 0x100, 1<<63 | 1, math.MaxUint64} {
		cases = append(cases, Input{Player: 1, Flags: AckValid, Ack: 70, Base: 65, Held: held, First: 71, Inputs: []game.Input{game.Jump}})
	}
	var got Input
	for i, m := range cases {
		prefix := []byte("xyz")
		b, first := AppendInput(slices.Clone(prefix), &m)
		if !bytes.HasPrefix(b, prefix) {
			t.Fatalf("case %d: the caller's bytes were overwritten", i)
		}
		b = b[len(prefix):]
		if first != m.First {
			t.Errorf("case %d: first %d, want %d", i, first, m.First)
		}
		if want := specInput(&m); !bytes.Equal(b, want) {
			t.Errorf("case %d: encoded\n%x\nwant (doc.go)\n%x", i, b, want)
		}
		if err := DecodeInput(b, &got); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if got.Player != m.Player || got.Flags != m.Flags || got.Ack != m.Ack || got.Base != m.Base || got.Held != m.Held || got.First != m.First || !slices.Equal(got.Inputs, m.Inputs) {
			t.Errorf("case %d: decoded %+v, want %+v", i, got, m)
		}
	}
}

// Bits outside game.InputMask and flags outside the defined ones are not
// sent, and inputs equal once masked share a run.
// inputHeadNear is the size of an Input message's head when its ack and
// base are the first tick (one byte each) and it holds no views before
// its base (no mask).
const inputHeadNear = 2 + 1 + 1 + 4 + 2 + 1 + 1

func TestInputMasks(t *testing.T) {
	m := Input{Flags: 0xff, Inputs: []game.Input{game.Jump, game.Jump | 0x40, game.Jump | 0x80, game.Left}}
	b, _ := AppendInput(nil, &m)
	var got Input
	if err := DecodeInput(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []game.Input{game.Jump, game.Jump, game.Jump, game.Left}
	if got.Flags != inputFlags || !slices.Equal(got.Inputs, want) {
		t.Errorf("got flags %#x inputs %v, want %#x %v", got.Flags, got.Inputs, inputFlags, want)
	}
	if len(b) != inputHeadNear+2 {
		t.Errorf("%d bytes, want %d: two runs", len(b), inputHeadNear+2)
	}
}

// Only the newest MaxTicks inputs are sent; with a run a tick they cost a
// byte each, so that MaxTicks of them always fit in a message.
func TestInputKeepsNewest(t *testing.T) {
	for _, first := range []uint32{0, 1000, math.MaxUint32 - 100} {
		for _, n := range []int{MaxTicks, MaxTicks + 1, 1500, 3 * MaxTicks} {
			sent := first + uint32(n-MaxTicks) // the first input that fits
			m := Input{First: first, Ack: sent, Base: sent, Inputs: alternating(n)}
			b, gotFirst := AppendInput(nil, &m)
			if want := first + uint32(n-MaxTicks); gotFirst != want {
				t.Errorf("%d inputs from %d: first %d, want %d", n, first, gotFirst, want)
			}
			if len(b) != inputHeadNear+MaxTicks {
				t.Errorf("%d inputs: %d bytes, want %d", n, len(b), inputHeadNear+MaxTicks)
			}
			var got Input
			if err := DecodeInput(b, &got); err != nil {
				t.Fatal(err)
			}
			if got.First != gotFirst || !slices.Equal(got.Inputs, m.Inputs[n-MaxTicks:]) {
				t.Errorf("%d inputs: decoded first %d and not the newest inputs", n, got.First)
			}
		}
	}
	// Random inputs of every count up to MaxTicks fit whole.
	r := newRand(2)
	for n := 1; n <= MaxTicks; n += 1 + r.IntN(20) {
		m := Input{Inputs: randInputs(r, n)}
		b, first := AppendInput(nil, &m)
		if len(b) > MaxMessage || first != 0 {
			t.Errorf("%d inputs: %d bytes, first %d", n, len(b), first)
		}
	}
}

// A key held for MaxTicks ticks is one run: a byte and the two-byte
// uvarint of 1020 (1020 >= 128).
func TestInputHeldKeys(t *testing.T) {
	b, _ := AppendInput(nil, &Input{Inputs: repeated(game.Forward|game.Right, MaxTicks)})
	if len(b) != inputHeadNear+3 {
		t.Errorf("%d bytes, want %d", len(b), inputHeadNear+3)
	}
	b, _ = AppendInput(nil, &Input{Inputs: repeated(game.Forward, 131)}) // 131-4 = 127: one byte
	if len(b) != inputHeadNear+2 {
		t.Errorf("131 held: %d bytes, want %d", len(b), inputHeadNear+2)
	}
}

// fitRuns keeps the largest number of newest inputs whose runs fit.
func TestFitRuns(t *testing.T) {
	r := newRand(3)
	for k := 0; k < 3000; k++ {
		ins := randInputs(r, 1+r.IntN(400))
		limit := r.IntN(runsSize(ins) + 2)
		if k%3 == 0 {
			limit = r.IntN(6)
		}
		n := fitRuns(ins, limit)
		if n < 0 || n > len(ins) {
			t.Fatalf("fitRuns = %d of %d", n, len(ins))
		}
		if got := len(appendRuns(nil, ins[len(ins)-n:])); got > limit {
			t.Fatalf("fitRuns(%d inputs, %d) = %d: %d bytes", len(ins), limit, n, got)
		}
		if n < len(ins) && len(appendRuns(nil, ins[len(ins)-n-1:])) <= limit {
			t.Fatalf("fitRuns(%v, %d) = %d, but %d newest inputs fit", ins, limit, n, n+1)
		}
	}
}

func TestInputInvalid(t *testing.T) {
	head := func(flags uint8, count uint16) spec {
		return msg(KindInput).u8(0, flags).u32(0).u16(count).uv(0).uv(0)
	}
	for _, c := range []struct {
		name string
		b    []byte
		err  error
	}{
		{"no inputs", head(0, 0), ErrInvalid},
		{"too many inputs", head(0, MaxTicks+1).run(0, MaxTicks+1), ErrInvalid},
		{"unknown flag", head(16, 1).run(0, 1), ErrInvalid},
		{"runs past the count", head(0, 3).run(0, 4), ErrInvalid},
		{"runs past the count, short form", head(0, 3).run(1, 2).run(0, 2), ErrInvalid},
		{"runs short of the count", head(0, 3).run(1, 2), ErrShort},
		{"a run's varint past MaxTicks", head(0, MaxTicks).u8(3 << 6).uv(1 << 20), ErrInvalid},
		{"two runs of the same input", head(0, 2).run(5, 1).run(5, 1), ErrInvalid},
		{"two extended runs of the same input", head(0, 10).run(5, 5).run(5, 5), ErrInvalid},
		{"a held mask of 9 bytes", head(hasHeld, 1).u8(9, 1, 1, 1, 1, 1, 1, 1, 1, 1).run(0, 1), ErrInvalid},
		{"a held mask with a zero top byte", head(hasHeld, 1).u8(2, 1, 0).run(0, 1), ErrInvalid},
		{"a held mask of one zero byte", head(hasHeld, 1).u8(1, 0).run(0, 1), ErrInvalid},
		{"a held mask of no bytes", head(hasHeld, 1).u8(0).run(0, 1), ErrInvalid},
		{"a held mask cut", head(hasHeld, 1).u8(8, 1, 1), ErrShort},
	} {
		var m Input
		m.Inputs = []game.Input{9, 9}
		err := DecodeInput(c.b, &m)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
		if m.Player != 0 || m.First != 0 || len(m.Inputs) != 2 {
			t.Errorf("%s: the destination was changed", c.name)
		}
	}
}

// InputHead reads what DecodeInput would, for every valid message, and
// refuses a message too short for its header or too large.
func TestInputHead(t *testing.T) {
	m := &Input{Player: 5, First: 77, Inputs: []game.Input{1, 2, 3}}
	b, _ := AppendInput(nil, m)
	p, n, err := InputHead(b)
	if err != nil || p != 5 || n != 3 {
		t.Fatalf("head %d %d %v", p, n, err)
	}
	for i := range 10 {
		if _, _, err := InputHead(b[:i]); err == nil {
			t.Errorf("a %d-byte prefix passed", i)
		}
	}
	big := append(b, make([]byte, MaxMessage)...)
	if _, _, err := InputHead(big); !errors.Is(err, ErrTooBig) {
		t.Errorf("a %d-byte message: %v", len(big), err)
	}
}
