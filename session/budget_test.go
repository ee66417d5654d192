package session

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// TestSnapshotBudgetAndPriority pulls cubes in the cubes scene under a
// budget: the snapshots' bytes stay within the budget (a token bucket: the
// rate, plus one datagram of burst), the player's cube is in nearly every
// one, many leave bodies out, and once everything has come to rest the
// client's view is the server's state: the accumulator got every body
// across.
func TestSnapshotBudgetAndPriority(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in the short mode")
	}
	h := newDirect(t, "cubes", game.Options{Quantize: true})
	h.s.BytesPerSecond = 16000 // 250 bytes a snapshot at 64 Hz
	player := h.s.Scene().Players[0]
	total, withPlayer, incomplete, n := 0, 0, 0, 0
	var m wire.Snapshot
	var states [16]physics.State // the server's last states, by tick
	rest := 0                    // ticks since the whole world fell asleep
	for i := 0; rest < 200; i++ {
		if i > 4000 {
			t.Fatalf("the scene never came to rest: %d bodies awake", h.s.World().AwakeCount())
		}
		in := game.Pull | game.Forward
		if i >= 256 {
			in = 0
			if h.s.World().AwakeCount() == 0 {
				rest++
			}
		}
		h.up(in)
		h.s.World().Save(&states[h.s.Tick()%16])
		msgs := h.down(true)
		for _, b := range msgs {
			if k, _ := wire.Kind(b); k != wire.KindSnapshot {
				continue
			}
			n++
			total += len(b)
			if len(b) > wire.MaxMessage {
				t.Fatalf("a snapshot of %d bytes", len(b))
			}
			_, base, _, err := wire.SnapshotBase(b)
			if err != nil {
				t.Fatal(err)
			}
			v := h.c.View(base)
			if v == nil {
				t.Fatalf("snapshot against %d, a view the client does not hold", base)
			}
			if err := wire.DecodeSnapshot(b, &m, v.Fill(nil)); err != nil {
				t.Fatal(err)
			}
			if m.Flags&wire.Complete == 0 {
				incomplete++
			}
			for _, u := range m.Bodies {
				if int(u.Index) == player {
					withPlayer++
				}
			}
		}
		h.deliver(msgs)
	}
	if limit := 16000*float64(n)/64 + wire.MaxMessage; float64(total) > limit {
		t.Fatalf("%d snapshots took %d bytes, more than the budget's %.0f", n, total, limit)
	}
	if incomplete < n/4 || withPlayer < n/2 {
		t.Fatalf("%d snapshots: %d incomplete, %d with the player; the test did not load the budget", n, incomplete, withPlayer)
	}
	// Everything at rest and sent by now: the newest view is the server's
	// bodies at its tick.
	v := h.c.NewestView()
	at := &states[v.Tick()%16]
	if at.Tick != v.Tick() {
		t.Fatalf("the newest view is of tick %d, the server's states go to %d", v.Tick(), h.s.Tick())
	}
	for i, b := range at.Bodies {
		if h.s.World().Static(i) {
			continue
		}
		if b != *v.Body(i) {
			t.Fatalf("body %d: the client's view is not the server's state after everything came to rest (last snapshot complete: %v): %+v != %+v", i, m.Flags&wire.Complete != 0, b, *v.Body(i))
		}
	}
	if !h.c.InSync() {
		t.Fatal("the client is not in step at the end")
	}
}
