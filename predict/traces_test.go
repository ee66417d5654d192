package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// testTraceCap is the traces' budget of TestTracesKeepTheOldest: smaller
// than the traces of its ticks in flight.
const testTraceCap = 2 << 20

// TestTracesKeepTheOldest: with more ticks in flight than the traces'
// budget holds traces of (the cubes scene while pulling), the traces of
// the oldest ticks in flight stay and the newest are not kept, so that a rewind to the newest snapshot's tick replays
// partially as far as they go and in full after (counted as a full
// replay, with fewer bodies re-simulated). Its bits are those of a client
// that replays in full.
func TestTracesKeepTheOldest(t *testing.T) {
	const lag = 80 // ticks in flight
	var hs [2]*harness
	for k := range hs {
		hs[k] = newHarness(t, "cubes", game.Options{}, StateSync, 0)
		hs[k].noRelays = true
		hs[k].c.Config.FullReplay = k == 1
		hs[k].c.hist.traceCap = testTraceCap
	}
	var queues [2][][][]byte
	for i := 0; i < lag+20; i++ {
		if i == 5 { // within the oldest ticks in flight, whose traces stay
			for _, h := range hs {
				h.s.Nudge(0, physics.Vec3{X: 2})
			}
		}
		stepLagged(hs, &queues, lag, false)
		if i == lag-1 {
			h := hs[0]
			if h.c.hist.traceBytes > testTraceCap {
				t.Fatalf("traces hold %d bytes, budget %d", h.c.hist.traceBytes, testTraceCap)
			}
			if _, ok := h.c.hist.traceOf(h.c.Tick() - lag + 1); !ok {
				t.Fatal("the trace of the oldest tick in flight is gone")
			}
			if _, ok := h.c.hist.traceOf(h.c.Tick() - 1); ok {
				t.Fatal("the newest tick's trace is kept beyond the budget")
			}
		}
	}
	part, full := &hs[0].c.Stats, &hs[1].c.Stats
	if part.FullReplays == 0 || part.Resimulated != full.Resimulated || part.ResimulatedBodies >= full.ResimulatedBodies {
		t.Fatalf("the traced client replayed %d times, %d ticks and %d bodies; the full-replay one %d ticks and %d bodies: want the same ticks, fewer bodies",
			part.FullReplays+part.PartialReplays, part.Resimulated, part.ResimulatedBodies, full.Resimulated, full.ResimulatedBodies)
	}
	t.Logf("bodies re-simulated: %d partially then in full, %d in full", part.ResimulatedBodies, full.ResimulatedBodies)
	if a, b := hs[0].c.World().Hash(), hs[1].c.World().Hash(); a != b {
		t.Fatalf("after the nudge's rewinds: %016x replaying partially, %016x in full", a, b)
	}
}

// TestTracesCoverALongLink: on a link whose ticks in flight are those of
// the outage preset (2 s round trips: 130 ticks), with the pile pulled
// about (from 260 to 450 awake cubes, up to 5,000 contacts), the traces of every tick in
// flight fit TraceBudget, so every correction replays partially, to the
// present: none goes on in full where the traces end. Its bits are those
// of a client that replays in full.
func TestTracesCoverALongLink(t *testing.T) {
	const warm, lag = 160, 130
	if testing.Short() {
		t.Skip("a long link in the busy cubes scene: about 10 s of CPU")
	}
	var hs [2]*harness
	for k := range hs {
		hs[k] = newHarness(t, "cubes", game.Options{}, StateSync, 0)
		hs[k].noRelays = true
		hs[k].c.Config.FullReplay = k == 1
	}
	var queues [2][][][]byte
	for i := 0; i < warm+lag+8; i++ {
		if i == warm+5 {
			for _, h := range hs {
				h.s.Nudge(0, physics.Vec3{X: 2})
			}
		}
		stepLagged(hs, &queues, lag, i < warm)
	}
	part, full := &hs[0].c.Stats, &hs[1].c.Stats
	if part.PartialReplays == 0 || part.FullReplays != 0 || part.Resimulated != full.Resimulated || part.Resimulated < lag {
		t.Fatalf("the traced client replayed %d times partially and %d in full, %d ticks; the full-replay one %d ticks: want every replay partial, the same ticks, at least %d",
			part.PartialReplays, part.FullReplays, part.Resimulated, full.Resimulated, lag)
	}
	t.Logf("%d partial replays, %d ticks, %d bodies re-simulated, against %d in full; traces %d bytes",
		part.PartialReplays, part.Resimulated, part.ResimulatedBodies, full.ResimulatedBodies, hs[0].c.hist.traceBytes)
	if a, b := hs[0].c.World().Hash(), hs[1].c.World().Hash(); a != b {
		t.Fatalf("after the nudge's rewinds: %016x replaying partially, %016x in full", a, b)
	}
}

// stepLagged runs a tick of both harnesses: each client steps, pulling
// forward, and the server's answer waits in the client's queue until more
// than lag answers are queued, or goes at once when straight is set.
func stepLagged(hs [2]*harness, queues *[2][][][]byte, lag int, straight bool) {
	for k, h := range hs {
		h.clientStep(game.Pull | game.Forward)
		h.deliverUp()
		h.serverSend(true)
		queues[k], h.down = append(queues[k], h.down), nil
		if straight || len(queues[k]) > lag {
			h.down = queues[k][0]
			queues[k] = queues[k][1:]
			h.deliverDown()
		}
	}
}
