package physics

import (
	"math"
	"testing"
	"unsafe"
)

// TestPackedTraceIsTheTrace: every trace the test scenes' steps record, and
// one with every field at its awkward values (a disabled body with forces,
// a rest count past a byte, negative index steps, a ground contact with
// impulses of -0), reads back bit for bit; the packed bytes of a busy step
// are at most two thirds of what the trace's values take; and every
// prefix of a packed trace, and a byte more, is refused.
func TestPackedTraceIsTheTrace(t *testing.T) {
	var tr, back Trace
	var b []byte
	check := func(name string, tr *Trace) {
		t.Helper()
		b = AppendTrace(b[:0], tr)
		if err := DecodeTrace(b, &back); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := traceEqual(tr, &back); err != nil {
			t.Fatalf("%s: the packed trace reads back as another: %v", name, err)
		}
	}
	busiest, packed := 0, 0
	for _, sc := range testScenes {
		w := sc.build()
		for k := 0; k < 120; k++ {
			w.Record(&tr)
			if err := sc.step(w); err != nil {
				t.Fatal(err)
			}
			check(sc.name, &tr)
			if n := valueBytes(&tr); n > busiest {
				busiest, packed = n, len(b)
			}
		}
	}
	if packed*3 > busiest*2 {
		t.Errorf("the busiest step's trace: %d bytes packed for %d bytes of values", packed, busiest)
	}
	t.Logf("the busiest step's trace: %d bytes packed for %d bytes of values", packed, busiest)
	negZero := math.Copysign(0, -1)
	odd := Trace{
		Tick:    1<<32 - 1,
		Active:  []int32{7, 3, 3, 0},
		Bodies:  []int32{0, 1 << 30},
		States:  []BodyState{{Force: Vec3{Z: negZero}, Rest: 1<<32 - 1, Disabled: true, Asleep: true}, {Pos: Vec3{X: 1}, Torque: Vec3{Y: 2}, Rest: 300}},
		Touched: []int32{5},
		Before:  []BodyState{{Rot: Quat{W: 1}}},
		Contacts: []ContactState{{A: 9, B: Ground, Feature: 0xffff, Pn: negZero, Pt2: 3},
			{A: 2, B: 1<<31 - 1, Feature: 1<<32 - 1, Pt1: -1}},
		Links: []uint64{1<<63 | 5, 0},
	}
	check("odd", &odd)
	full := AppendTrace(nil, &odd)
	for n := range full {
		if DecodeTrace(full[:n], &back) == nil {
			t.Fatalf("a packed trace cut to %d of %d bytes was read", n, len(full))
		}
	}
	if DecodeTrace(append(full, 0), &back) == nil {
		t.Fatal("a packed trace with a byte more was read")
	}
}

// valueBytes returns the bytes tr's values take as Go values.
func valueBytes(tr *Trace) int {
	return 4*(len(tr.Active)+len(tr.Bodies)+len(tr.Touched)) + int(unsafe.Sizeof(BodyState{}))*(len(tr.States)+len(tr.Before)) +
		int(unsafe.Sizeof(ContactState{}))*len(tr.Contacts) + 8*len(tr.Links)
}

// BenchmarkPackTrace measures packing and unpacking the trace of a step of
// the swarm (every box awake): what a client pays on every tick it records
// and on every tick a partial replay follows, per byte of trace.
func BenchmarkPackTrace(b *testing.B) {
	w := mustSwarm()
	if err := testScenes[2].run(w, 60); err != nil {
		b.Fatal(err)
	}
	var tr, back Trace
	w.Record(&tr)
	if err := testScenes[2].step(w); err != nil {
		b.Fatal(err)
	}
	buf := AppendTrace(nil, &tr)
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(valueBytes(&tr)))
		for i := 0; i < b.N; i++ {
			buf = AppendTrace(buf[:0], &tr)
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(valueBytes(&tr)))
		for i := 0; i < b.N; i++ {
			if err := DecodeTrace(buf, &back); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzDecodeTrace: any bytes either fail to decode with an error or give a
// trace that packs and reads back as itself; never a panic. The seeds are
// a busy step's packed trace and the hand-made one with awkward values.
func FuzzDecodeTrace(f *testing.F) {
	var tr Trace
	w := testScenes[0].build()
	for range 30 {
		w.Record(&tr)
		if err := testScenes[0].step(w); err != nil {
			f.Fatal(err)
		}
	}
	f.Add(AppendTrace(nil, &tr))
	f.Add(AppendTrace(nil, &Trace{Tick: 3, Active: []int32{2, 1}, Contacts: []ContactState{{A: 1, B: Ground, Pn: 1}}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got, again Trace
		if DecodeTrace(b, &got) != nil {
			return
		}
		if err := DecodeTrace(AppendTrace(nil, &got), &again); err != nil {
			t.Fatalf("a decoded trace packs into bytes that do not decode: %v", err)
		}
		if err := traceEqual(&got, &again); err != nil {
			t.Fatalf("a decoded trace packs and reads back as another: %v", err)
		}
	})
}
