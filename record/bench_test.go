package record

import (
	"bytes"
	"testing"

	"github.com/cubelab/cube/game/gametest"
	"github.com/cubelab/cube/physics"
)

// benchSession is a 10,000-tick session with events, skips and a full state
// every 64 ticks.
func benchSession(b *testing.B) written {
	return writeSession(b, session{ticks: 10000, fullEvery: 64, skips: true, events: true, nudgeAt: -1})
}

func BenchmarkRead10kTicks(b *testing.B) {
	s := benchSession(b)
	b.SetBytes(int64(len(s.data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(s.data), 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplay10kTicks(b *testing.B) {
	s := benchSession(b)
	rec := readOK(b, s.data)
	b.ReportAllocs()
	for b.Loop() {
		res, err := Replay(rec)
		if err != nil || res.Divergence != nil || res.Ticks != 10000 {
			b.Fatalf("%+v, %v", res, err)
		}
	}
}

func BenchmarkWrite10kTicks(b *testing.B) {
	// The states after each tick, simulated once, so that only the writer
	// is measured.
	w := gametest.World()
	var init physics.State
	w.Save(&init)
	states := make([]physics.State, 10000)
	hashes := make([]uint64, len(states))
	for k := range states {
		if err := gametest.Step(w, gametest.Scripted(w.Tick())); err != nil {
			b.Fatal(err)
		}
		w.Save(&states[k])
		hashes[k] = w.Hash()
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		wr, err := NewWriter(&buf, Header{Scene: gametest.Scene.ID, Initial: init})
		if err != nil {
			b.Fatal(err)
		}
		for k := range states {
			st := &states[k]
			if err := wr.Tick(st.Tick-1, one(gametest.Scripted(st.Tick-1)), hashes[k], st); err != nil {
				b.Fatal(err)
			}
		}
		if err := wr.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
