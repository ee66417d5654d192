package wire

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// go test -run XXX -bench . -benchtime 2s ./netcode/wire/

// benchSnapshot returns a view of 901 bodies on the grid and a moved copy
// of each, as in Fiedler's demo.
func benchSnapshot() (base, cur []physics.BodyState) {
	r := newRand(71)
	base = randBase(r, 901, true)
	cur = make([]physics.BodyState, len(base))
	for i := range base {
		cur[i] = nearGridState(r, &base[i])
	}
	return base, cur
}

// writeFull writes as many of cur's bodies as fit in MaxMessage.
func writeFull(w *SnapshotWriter, buf []byte, base, cur []physics.BodyState) ([]byte, int) {
	w.Begin(buf[:0], &Snapshot{Tick: 100, Base: 90, Flags: Quantized, Hash: 1, Chain: 2, Heard: 99})
	n := 0
	for i := range cur {
		if ok, _ := w.Body(int32(i), &cur[i], &base[i], MaxMessage); !ok {
			break
		}
		n++
	}
	return w.Finish(false, false), n
}

func BenchmarkSnapshotEncodeQuantized(b *testing.B) {
	base, cur := benchSnapshot()
	var w SnapshotWriter
	buf := make([]byte, 0, MaxMessage+200)
	msg, n := writeFull(&w, buf, base, cur)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = writeFull(&w, buf, base, cur)
	}
	b.ReportMetric(float64(n), "bodies/msg")
}

func BenchmarkSnapshotDecodeQuantized(b *testing.B) {
	base, cur := benchSnapshot()
	var w SnapshotWriter
	msg, n := writeFull(&w, nil, base, cur)
	var m Snapshot
	if err := DecodeSnapshot(msg, &m, base); err != nil || len(m.Bodies) != n {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeSnapshot(msg, &m, base); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "bodies/msg")
}

// benchRelay is 64 ticks of 8 players, with a skip and two nudges.
func benchRelay() *Relay {
	r := newRand(72)
	m := &Relay{First: 1000, Count: 64, Hash: 3, Heard: 1060, Players: game.MaxPlayers}
	m.Inputs = randInputs(r, m.Count*m.Players)
	m.Skips = []Span{{20, 3}}
	m.Events = []TickEvent{{5, game.Event{Kind: game.Nudge, Player: 2, Impulse: physics.Vec3{X: 1}}},
		{40, game.Event{Kind: game.Nudge, Player: 7, Impulse: physics.Vec3{Y: 2}}}}
	return m
}

func BenchmarkRelayEncode(b *testing.B) {
	m := benchRelay()
	buf := make([]byte, 0, MaxMessage)
	b.SetBytes(int64(RelaySize(m, m.Count)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendRelay(buf[:0], m, FitRelay(m))
	}
}

func BenchmarkRelayDecode(b *testing.B) {
	m := benchRelay()
	msg := AppendRelay(nil, m, m.Count)
	var got Relay
	if err := DecodeRelay(msg, &got); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeRelay(msg, &got); err != nil {
			b.Fatal(err)
		}
	}
}

func benchInput() *Input {
	return &Input{Player: 3, Flags: AckValid, Ack: 900, First: 960, Inputs: randInputs(newRand(73), 64)}
}

func BenchmarkInputEncode(b *testing.B) {
	m := benchInput()
	buf := make([]byte, 0, MaxMessage)
	buf, _ = AppendInput(buf, m)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = AppendInput(buf[:0], m)
	}
}

func BenchmarkInputDecode(b *testing.B) {
	msg, _ := AppendInput(nil, benchInput())
	var got Input
	if err := DecodeInput(msg, &got); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		if err := DecodeInput(msg, &got); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendBodyFull encodes 901 moved bodies at full precision
// against their base, as a state-sync snapshot does without -quantize.
func BenchmarkAppendBodyFull(b *testing.B) {
	r := newRand(72)
	base := randBase(r, 901, false)
	cur := make([]physics.BodyState, len(base))
	for i := range base {
		cur[i] = base[i]
		cur[i].Pos.X += float64(r.IntN(1000)) * 1e-7
		cur[i].Vel.Y -= 0.1533
		cur[i].Rot.W *= 1 - 1e-9
	}
	buf := make([]byte, 0, 901*200)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for i := range cur {
			buf, _ = AppendBody(buf, &cur[i], &base[i], false)
		}
	}
	b.SetBytes(int64(len(buf)))
}
