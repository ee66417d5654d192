package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// TestConfirmingSnapshotReplaysNothing: a client whose world differs from
// the server's only in a body the snapshots do not carry (a resting box
// the server sees unchanged) mispredicts every snapshot, but each carries
// only what the client predicted right. Such a snapshot replays nothing:
// the world stays as it was, bit for bit, and no replay is counted (until
// a snapshot carries the box, or a repair mends it).
func TestConfirmingSnapshotReplaysNothing(t *testing.T) {
	h := newHarness(t, "cubes", game.Options{}, StateSync, 0)
	h.noRelays = true
	h.run(64, 0)
	if h.c.World().Hash() != h.s.World().Hash() {
		t.Fatal("not in step before the test")
	}
	far, d2 := -1, 0.0 // the resting box furthest from the player's cube
	me := h.c.World().Body(h.c.body).Pos
	for i := range h.c.World().NumBodies() {
		b := h.c.World().Body(i)
		if h.c.World().Static(i) || i == h.c.body || !b.Asleep {
			continue
		}
		if d := b.Pos.Sub(me).Dot(b.Pos.Sub(me)); d > d2 {
			far, d2 = i, d
		}
	}
	if far < 0 {
		t.Fatal("no resting box")
	}
	at := h.c.Tick() + 1
	var s physics.State
	h.c.Perturb = func(w *physics.World, tk uint32, _ int) {
		if tk == at {
			w.Save(&s)
			s.Bodies[far].Pos.X += 1e-9
			w.Load(&s)
		}
	}
	var queue [][][]byte // the snapshots in flight: delivered 4 ticks late
	for range 60 {
		h.clientStep(0) // the player's cube stays at rest too
		h.deliverUp()
		h.serverSend(true)
		queue, h.down = append(queue, h.down), nil
		if len(queue) < 4 {
			continue
		}
		for _, b := range queue[0] {
			before, replays, confirmed := h.c.World().Hash(), h.c.Stats.PartialReplays+h.c.Stats.FullReplays, h.c.Stats.Confirmed
			if err := h.c.Receive(b); err != nil {
				t.Fatal(err)
			}
			if h.c.Stats.Confirmed == confirmed {
				continue
			}
			if h.c.World().Hash() != before || h.c.Stats.PartialReplays+h.c.Stats.FullReplays != replays {
				t.Fatalf("a confirming snapshot changed the world (%016x to %016x) or replayed (%d to %d)",
					before, h.c.World().Hash(), replays, h.c.Stats.PartialReplays+h.c.Stats.FullReplays)
			}
		}
		queue = queue[1:]
	}
	if h.c.Stats.Confirmed == 0 {
		t.Fatalf("no snapshot confirmed the prediction (box %d moved by the client alone)", far)
	}
	t.Logf("%d snapshots confirmed the prediction, %d corrections", h.c.Stats.Confirmed, h.c.Stats.Corrections)
}
