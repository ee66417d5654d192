package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Fuzzers: go test -run XXX -fuzz FuzzDecodeRelay -fuzztime 1m ./netcode/wire/
// Their seeds (the corpus of valid messages, and what testdata/fuzz holds)
// run in every go test. A decoder must never panic and must return one of
// the sentinel errors; what it takes must encode back to the same bytes
// where the encoding is canonical, and to the same value where it is not.

// seed adds the corpus's messages of the given kinds, and a few broken
// copies of them, to f.
func seed(f *testing.F, kinds ...byte) {
	for _, m := range validMessages() {
		for _, k := range kinds {
			if m.b[0] == k {
				f.Add(m.b)
				f.Add(m.b[:len(m.b)/2])
				flipped := bytes.Clone(m.b)
				flipped[len(flipped)-1] ^= 0x80
				f.Add(flipped)
			}
		}
	}
}

// checkErr fails t if err is not one of the sentinel errors.
func checkErr(t *testing.T, err error) {
	t.Helper()
	if !sentinel(err) {
		t.Fatalf("error %v is none of the sentinel errors", err)
	}
}

func FuzzDecodeInput(f *testing.F) {
	seed(f, KindInput)
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Input
		if err := DecodeInput(b, &m); err != nil {
			checkErr(t, err)
			return
		}
		if len(m.Inputs) < 1 || len(m.Inputs) > MaxTicks || m.Flags&^inputFlags != 0 {
			t.Fatalf("decoded %d inputs, flags %#x", len(m.Inputs), m.Flags)
		}
		for _, in := range m.Inputs {
			if !in.Valid() {
				t.Fatalf("decoded input %#x", in)
			}
		}
		enc, first := AppendInput(nil, &m)
		if first != m.First || !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", m, enc, b)
		}
	})
}

func FuzzDecodeRelay(f *testing.F) {
	seed(f, KindRelay)
	// Invalid relays that earlier decoders took (see TestRelayInvalid): a
	// skip offset that wraps around 2³² into the run before, an event at
	// offset 2³¹ (negative as an int on 32-bit CPUs).
	head := func() spec { return msg(KindRelay).u32(7).uv(20).u64(1).u32(2).u8(1).run(0, 20) }
	f.Add([]byte(head().uv(2).uv(10).uv(5).uv(1<<32 - 10).uv(2).uv(0)))
	f.Add([]byte(head().uv(0).uv(1).uv(1<<31).u8(byte(game.Nudge), 0).f64(1).f64(2).f64(3)))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Relay
		if err := DecodeRelay(b, &m); err != nil {
			checkErr(t, err)
			return
		}
		if err := relayInvariants(&m); err != "" {
			t.Fatalf("decoded %+v: %s", m, err)
		}
		if n := RelaySize(&m, m.Count); n != len(b) {
			t.Fatalf("RelaySize %d, message %d bytes", n, len(b))
		}
		if FitRelay(&m) != m.Count {
			t.Fatalf("FitRelay %d of %d ticks of a message of %d bytes", FitRelay(&m), m.Count, len(b))
		}
		if enc := AppendRelay(nil, &m, m.Count); !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", m, enc, b)
		}
	})
}

// relayInvariants returns what is wrong with a decoded relay ("" if
// nothing): the skips and the events must lie in its ticks, in order, the
// skips neither overlapping nor touching, the events of known kinds for its
// players with finite nudges.
func relayInvariants(m *Relay) string {
	switch {
	case m.Count < 1 || m.Count > MaxTicks || m.Players < 1 || m.Players > game.MaxPlayers:
		return "count or players out of range"
	case len(m.Inputs) != m.Count*m.Players:
		return "inputs"
	}
	end := int64(-1)
	for _, s := range m.Skips {
		if int64(s.Offset) <= end || s.Len == 0 || int64(s.Offset)+int64(s.Len) > int64(m.Count) {
			return "skips"
		}
		end = int64(s.Offset) + int64(s.Len)
	}
	prev := uint32(0)
	for _, e := range m.Events {
		if e.Offset < prev || e.Offset >= uint32(m.Count) || int(e.Event.Player) >= m.Players ||
			e.Event.Kind != game.Nudge || !e.Event.Impulse.Finite() {
			return "events"
		}
		prev = e.Offset
	}
	return ""
}

func FuzzDecodeHelloWelcome(f *testing.F) {
	seed(f, KindHello, KindWelcome)
	f.Fuzz(func(t *testing.T, b []byte) {
		var h Hello
		if err := DecodeHello(b, &h); err != nil {
			checkErr(t, err)
		} else if id := h.Scene; len(id.Name) < 1 || len(id.Name) > game.MaxSceneName || id.Players < 1 ||
			id.Players > game.MaxPlayers || id.Bodies < 0 || id.Bodies > game.MaxDropBodies || h.Mode > MaxMode {
			t.Fatalf("decoded %+v", h)
		} else if enc := AppendHello(nil, &h); !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", h, enc, b)
		}
		var w Welcome
		if err := DecodeWelcome(b, &w); err != nil {
			checkErr(t, err)
		} else if w.Result > lastResult || w.Player >= game.MaxPlayers {
			t.Fatalf("decoded %+v", w)
		} else if enc := AppendWelcome(nil, &w); !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", w, enc, b)
		}
	})
}

// bitsPast reports whether bitmap has a bit set at n or after.
func bitsPast(bitmap []byte, n int) bool {
	for i := n; i < 8*len(bitmap); i++ {
		if bitmap[i/8]>>(i%8)&1 != 0 {
			return true
		}
	}
	return false
}

// bigTransfer is a transfer of the largest size, for re-encoding fragments
// of any size without allocating one each time.
var bigTransfer = make([]byte, MaxFragments*FragmentBytes)

func FuzzDecodeFragmentHave(f *testing.F) {
	seed(f, KindFragment, KindHave)
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Fragment
		if err := DecodeFragment(b, &m); err != nil {
			checkErr(t, err)
		} else {
			if m.Count < 1 || m.Count > MaxFragments || m.Index >= m.Count || FragmentCount(int(m.Size)) != int(m.Count) ||
				(m.Index < m.Count-1 && len(m.Data) != FragmentBytes) || int(m.Index)*FragmentBytes+len(m.Data) > int(m.Size) {
				t.Fatalf("decoded fragment %d of %d of %d bytes with %d bytes", m.Index, m.Count, m.Size, len(m.Data))
			}
			data := bigTransfer[:m.Size]
			copy(data[int(m.Index)*FragmentBytes:], m.Data)
			if enc := AppendFragment(nil, m.Tick, data, int(m.Index)); !bytes.Equal(enc, b) {
				t.Fatalf("decoded fragment %d of %d of %d bytes, which encodes to\n%x\nnot\n%x", m.Index, m.Count, m.Size, enc, b)
			}
		}
		var h Have
		if err := DecodeHave(b, &h); err != nil {
			checkErr(t, err)
		} else if h.Count < 1 || h.Count > MaxFragments || len(h.Got) != (int(h.Count)+7)/8 || bitsPast(h.Got, int(h.Count)) {
			t.Fatalf("decoded %+v", h)
		} else if enc := AppendHave(nil, &h); !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", h, enc, b)
		}
	})
}

// FuzzDecodeSnapshot decodes against corpusBase (six bodies on the grid)
// and writes what it took again: the same bytes at full precision (the
// encoding is canonical there), the same value when quantised (a rotation
// may be sent as a delta or not).
func FuzzDecodeSnapshot(f *testing.F) {
	seed(f, KindSnapshot)
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Snapshot
		if err := DecodeSnapshot(b, &m, corpusBase); err != nil {
			checkErr(t, err)
			return
		}
		if m.Flags&^snapshotFlags != 0 || (m.Flags&ContactsComplete != 0 && m.Flags&HasContacts == 0) ||
			(m.Flags&HasContacts == 0) != (len(m.Contacts) == 0) {
			t.Fatalf("decoded flags %#x with %d contacts", m.Flags, len(m.Contacts))
		}
		for i, u := range m.Bodies {
			if u.Index < 0 || int(u.Index) >= len(corpusBase) || (i > 0 && u.Index <= m.Bodies[i-1].Index) {
				t.Fatalf("decoded body indices out of order or range: %+v", m.Bodies)
			}
		}
		var w SnapshotWriter
		w.Begin(nil, &m)
		for _, u := range m.Bodies {
			ok, grid := w.Body(u.Index, &u.State, &corpusBase[u.Index], MaxMessage)
			if !grid {
				t.Fatalf("a decoded body is off the grid: %+v", u)
			}
			if !ok {
				if m.Flags&Quantized == 0 {
					t.Fatal("a body of a canonical snapshot does not fit again")
				}
				return // a rotation sent whole may cost more as a delta
			}
		}
		for i := range m.Contacts {
			if !w.Contact(&m.Contacts[i], MaxMessage) {
				t.Fatal("a contact does not fit again")
			}
		}
		enc := w.Finish(m.Flags&Complete != 0, m.Flags&ContactsComplete != 0)
		want := m
		if m.Flags&Quantized == 0 && !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", m, enc, b)
		}
		var again Snapshot
		if err := DecodeSnapshot(enc, &again, corpusBase); err != nil {
			t.Fatalf("what the writer wrote does not decode: %v", err)
		}
		if d := snapshotDiff(&again, &want); d != "" {
			t.Fatalf("decode, encode, decode changed the %s", d)
		}
	})
}

// bodyFrom makes a body of the words in b (little endian, zeros past its
// end).
func bodyFrom(b []byte) physics.BodyState {
	var w [physics.BodyWordCount]uint64
	var x [8]byte
	for k := range w {
		clear(x[:])
		if 8*k < len(b) {
			copy(x[:], b[8*k:])
		}
		w[k] = binary.LittleEndian.Uint64(x[:])
	}
	var s physics.BodyState
	physics.SetBodyWords(&s, &w)
	return s
}

func bodyBytes(s *physics.BodyState) []byte {
	var b []byte
	for _, x := range physics.BodyWords(s) {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return b
}

// hasNaN reports whether the words QuantizeBody reads hold a NaN.
func hasNaN(s *physics.BodyState) bool {
	w := physics.BodyWords(s)
	for _, x := range w[:wordRest] {
		if math.IsNaN(math.Float64frombits(x)) {
			return true
		}
	}
	return false
}

// FuzzBodyCodec takes any words for a body and its baseline: at full
// precision the body comes back bit for bit; quantised (both put on the
// grid by QuantizeBody) too.
func FuzzBodyCodec(f *testing.F) {
	st := scriptedState(f, "arena", 200)
	for i := range st.Bodies {
		f.Add(bodyBytes(&st.Bodies[i]), bodyBytes(&corpusBase[i%len(corpusBase)]))
	}
	r := newRand(61)
	for k := 0; k < 8; k++ {
		a, b := randState(r), randState(r)
		c := nearState(r, &a)
		f.Add(bodyBytes(&a), bodyBytes(&b))
		f.Add(bodyBytes(&a), bodyBytes(&c))
	}
	f.Add([]byte{}, []byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 152), []byte{})
	f.Fuzz(func(t *testing.T, cb, bb []byte) {
		cur, base := bodyFrom(cb), bodyFrom(bb)
		views := []physics.BodyState{base}
		var w SnapshotWriter
		var m Snapshot
		w.Begin(nil, &Snapshot{})
		if ok, grid := w.Body(0, &cur, &base, MaxMessage); !ok || !grid {
			t.Fatal("a body refused at full precision")
		}
		if err := DecodeSnapshot(w.Finish(true, false), &m, views); err != nil {
			t.Fatal(err)
		}
		if len(m.Bodies) != 1 || !sameBits(&m.Bodies[0].State, &cur) {
			t.Fatalf("full precision: %+v came back as %+v", cur, m.Bodies)
		}
		if hasNaN(&cur) || hasNaN(&base) {
			return // QuantizeBody of a NaN: see TestKnownGridNaN
		}
		game.QuantizeBody(&cur)
		game.QuantizeBody(&views[0])
		w.Begin(nil, &Snapshot{Flags: Quantized})
		if ok, grid := w.Body(0, &cur, &views[0], MaxMessage); !ok || !grid {
			t.Fatalf("QuantizeBody's %+v refused against %+v: ok %v grid %v", cur, views[0], ok, grid)
		}
		if err := DecodeSnapshot(w.Finish(true, false), &m, views); err != nil {
			t.Fatal(err)
		}
		if len(m.Bodies) != 1 || !sameBits(&m.Bodies[0].State, &cur) {
			t.Fatalf("quantised: %+v came back as %+v", cur, m.Bodies)
		}
	})
}
