package predict

import (
	"runtime"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// wallScript holds W into the arena's wall, and jumps now and then.
func wallScript(t uint32) game.Input {
	if t%128 == 0 {
		return game.Forward | game.Jump
	}
	return game.Forward
}

// BenchmarkClientTick measures one predicted tick in steady state, in
// state sync: store the tick, step the cube held against the wall (ground
// and wall contacts, checked at the end), hash, encode the redundant
// input message; every tick a matching snapshot from 8 ticks back arrives,
// which keeps about 8 ticks in flight.
func BenchmarkClientTick(b *testing.B) {
	h := newHarness(b, "arena", game.Options{}, StateSync, 0)
	var queue [][][]byte
	step := func() {
		h.clientStep(wallScript(h.c.Tick()))
		h.deliverUp()
		h.serverSend(true)
		queue = append(queue, h.down)
		h.down = nil
		if len(queue) > 8 {
			h.down = queue[0]
			queue = queue[1:]
			h.deliverDown()
		}
		h.up = h.up[:0]
	}
	for i := 0; i < 2048; i++ {
		step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.StopTimer()
	if h.c.Stats.Corrections+h.c.Stats.Resyncs != 0 {
		b.Fatal("a matching state caused a correction")
	}
	wall := false
	for _, k := range h.c.World().Contacts() {
		wall = wall || k.B == 1 || k.A == 1 // body 1 is the wall
	}
	if !wall {
		b.Fatal("the cube is not touching the wall")
	}
}

// BenchmarkCorrection32 measures a state-sync correction 32 ticks back:
// rebuild the predicted state from its keyframe, put the server's cube in,
// replay 32 ticks. The snapshot is a nudged server's, so that it always
// disagrees.
func BenchmarkCorrection32(b *testing.B) {
	h := newHarness(b, "arena", game.Options{}, StateSync, 0)
	h.run(64, 0)
	// The server simulates 8 more ticks with a nudge; the client 40.
	h.s.Nudge(0, physics.Vec3{X: 1})
	var held [][]byte
	for i := 0; i < 40; i++ {
		h.clientStep(script(h.c.Tick()))
		held = append(held, h.up...)
		h.up = h.up[:0]
	}
	for _, m := range held[:8] {
		if err := h.s.Receive(h.now, 1, m); err != nil {
			b.Fatal(err)
		}
	}
	h.serverSend(true)
	snap := h.down[0]
	var saved physics.State
	h.c.World().Save(&saved)
	c := *h.c // the client as it stands before the snapshot
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		*h.c = c
		if err := h.c.World().Restore(&saved); err != nil {
			b.Fatal(err)
		}
		if err := h.c.Receive(snap); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if h.c.Stats.Corrections+h.c.Stats.Resyncs != 1 || h.c.Stats.ReplayedTicks != 32 {
		b.Fatalf("corrections %d, replayed %d", h.c.Stats.Corrections, h.c.Stats.ReplayedTicks)
	}
}

// TestClientMemoryIsKeyframes: with 1000 ticks in flight in the cubes
// scene, the client holds a keyframe every KeyEvery ticks, not a world per
// tick.
func TestClientMemoryIsKeyframes(t *testing.T) {
	h := newHarness(t, "cubes", game.Options{}, StateSync, 0)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	for i := 0; i < 1000; i++ {
		h.clientStep(game.Pull | game.Forward)
		h.up = h.up[:0]
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	grew := int64(ms.HeapAlloc) - int64(before)
	state := int64(h.c.World().State().EncodedSize())
	if h.c.InFlight() != 1000 || grew > state*1000/KeyEvery*2 {
		t.Fatalf("1000 ticks in flight grew the heap by %d bytes, %.0f states of %d bytes", grew, float64(grew)/float64(state), state)
	}
	runtime.KeepAlive(h)
}
