package record

import (
	"bytes"
	"testing"
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
	b.ReportAllocs()
	for b.Loop() {
		benchSession(b)
	}
}
