package predict

import (
	"runtime"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/physics"
)

// wallScript holds W into the arena's wall, and jumps now and then.
func wallScript(t uint32) game.Input {
	if t%128 == 0 {
		return game.Forward | game.Jump
	}
	return game.Forward
}

// msgRing delays messages by a fixed number of ticks in buffers it reuses,
// so that a benchmark's own plumbing allocates nothing.
type msgRing struct {
	slots [][][]byte // per tick, its messages
	spare [][]byte
	next  int
}

// put keeps copies of msgs as this tick's and returns the messages of the
// tick len(slots) ticks ago, valid until the next put.
func (q *msgRing) put(msgs [][]byte) [][]byte {
	out := q.slots[q.next]
	// Reuse the old buffers for the new copies after handing the old
	// ones out: swap in a spare set.
	q.slots[q.next], q.spare = q.spare[:0], out
	for i, m := range msgs {
		if i < cap(q.slots[q.next]) {
			q.slots[q.next] = q.slots[q.next][:i+1]
			q.slots[q.next][i] = append(q.slots[q.next][i][:0], m...)
		} else {
			q.slots[q.next] = append(q.slots[q.next], append([]byte(nil), m...))
		}
	}
	q.next = (q.next + 1) % len(q.slots)
	return out
}

// BenchmarkClientTick measures one predicted tick in steady state, in
// state sync: store the tick, step the cube held against the wall (ground
// and wall contacts, checked at the end), hash, encode the redundant
// input message, and take a matching snapshot from 8 ticks back (which
// keeps about 8 ticks in flight). The server's side is outside the timer.
func BenchmarkClientTick(b *testing.B) {
	h := newHarness(b, "arena", game.Options{}, StateSync, 0)
	q := msgRing{slots: make([][][]byte, 8)}
	var up, down [][]byte
	var upBuf, downBuf [][]byte
	keep := func(dst *[][]byte, bufs *[][]byte, m []byte) {
		i := len(*dst)
		if i == len(*bufs) {
			*bufs = append(*bufs, nil)
		}
		(*bufs)[i] = append((*bufs)[i][:0], m...)
		*dst = append(*dst, (*bufs)[i])
	}
	sendUp := func(m []byte) { keep(&up, &upBuf, m) }
	sendDown := func(_ uint32, m []byte) { keep(&down, &downBuf, m) }
	step := func(timed bool) {
		up = up[:0]
		if err := h.c.Step(wallScript(h.c.Tick()), sendUp); err != nil {
			b.Fatal(err)
		}
		h.now += 15625 * time.Microsecond
		if timed {
			b.StopTimer()
		}
		for _, m := range up {
			if err := h.s.Receive(h.now, 1, m); err != nil {
				b.Fatal(err)
			}
		}
		down = down[:0]
		h.s.Send(h.now, true, sendDown)
		due := q.put(down)
		if timed {
			b.StartTimer()
		}
		for _, m := range due {
			if err := h.c.Receive(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := 0; i < 2048; i++ {
		step(false)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step(true)
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

// correctionSetup returns a client that has made one correction already
// and run for longer than its views' ring (its buffers grown and its free
// chunks back, as in a running session), now 40 ticks ahead of its
// last snapshot, and a snapshot of a nudged server 32 ticks behind it.
func correctionSetup(b *testing.B) (*harness, []byte) {
	h := newHarness(b, "arena", game.Options{}, StateSync, 0)
	h.run(64, 0)
	_, snap := nudgedSnapshot(b, h)
	if err := h.c.Receive(snap); err != nil {
		b.Fatal(err)
	}
	h.run(protocol.ViewRing+8, 0) // the views' ring has turned: chunks come back
	h.c.Stats = ClientStats{}
	return nudgedSnapshot(b, h)
}

// nudgedSnapshot has the server simulate 8 more ticks with a nudge and the
// client 40, and returns the server's snapshot.
func nudgedSnapshot(b *testing.B, h *harness) (*harness, []byte) {
	h.down = h.down[:0]
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
	return h, h.down[0]
}

// BenchmarkCorrection32 measures a state-sync correction 32 ticks back:
// rebuild the predicted state from its keyframe, put the server's bodies
// in, replay 32 ticks. The snapshot is a nudged server's, so that it always
// disagrees. Each correction gets a client of its own, made outside the
// timer (a few hundred microseconds each: run it with -benchtime 2000x).
func BenchmarkCorrection32(b *testing.B) {
	b.ReportAllocs()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		h, snap := correctionSetup(b)
		b.StartTimer()
		err := h.c.Receive(snap)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if h.c.Stats.Corrections+h.c.Stats.Resyncs != 1 || h.c.Stats.ReplayedTicks != 32 {
			b.Fatalf("corrections %d, replayed %d", h.c.Stats.Corrections, h.c.Stats.ReplayedTicks)
		}
	}
}

// TestClientMemoryIsKeyframes: with 1000 ticks in flight in the cubes
// scene, pulling (every cube nearby moves, so a trace is nearly a whole
// state), the client holds a keyframe every KeyEvery ticks and traces
// within TraceBudget, not a world per tick.
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
	if h.c.InFlight() != 1000 || grew > state*1000/KeyEvery*2+TraceBudget {
		t.Fatalf("1000 ticks in flight grew the heap by %d bytes, %.0f states of %d bytes", grew, float64(grew)/float64(state), state)
	}
	runtime.KeepAlive(h)
}
