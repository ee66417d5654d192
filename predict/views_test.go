package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// The set Replayed gives is the set the partial replay followed: as many
// bodies as the replay counts, every body the rewind changed among them,
// every body outside it as the prediction had it, bit for bit. The
// correction kept is among it, each body with a predicted state that
// differs from the server's. The cubes scene, the player's cube driven
// into the cubes and the server's cube nudged now and then, so that
// corrections reach one body or several.
func TestReplayedIsTheFollowedSet(t *testing.T) {
	const lag = 4
	h := newHarness(t, "cubes", game.Options{}, StateSync, 0)
	h.noRelays = true
	h.c.KeepCorrection = true
	var queue [][][]byte
	var before physics.State
	var list []int32
	in := make([]bool, h.c.World().NumBodies())
	checked, smallest, largest := 0, 1<<30, 0
	var lastN uint64
	for i := 0; i < 150; i++ {
		if i%23 == 11 {
			h.s.Nudge(0, physics.Vec3{X: 3, Z: -2})
		}
		h.clientStep(game.Forward)
		h.deliverUp()
		h.serverSend(true)
		queue, h.down = append(queue, h.down), nil
		if len(queue) <= lag {
			continue
		}
		h.down, queue = queue[0], queue[1:]
		_, was, _ := h.c.Replayed(nil)
		h.c.World().Save(&before)
		h.deliverDown()
		var n uint64
		var full bool
		list, n, full = h.c.Replayed(list[:0])
		if n != was+1 || full {
			continue
		}
		checked++
		if len(list) != h.c.Stats.LastReplay {
			t.Fatalf("step %d: %d bodies listed, the replay counts %d", i, len(list), h.c.Stats.LastReplay)
		}
		smallest, largest = min(smallest, len(list)), max(largest, len(list))
		clear(in)
		for _, b := range list {
			if in[b] {
				t.Fatalf("step %d: body %d listed twice", i, b)
			}
			in[b] = true
		}
		now := h.c.World().State()
		for b := range now.Bodies {
			same := now.Bodies[b] == before.Bodies[b]
			if !in[b] && !same {
				t.Fatalf("step %d: body %d changed by the rewind, not in its set of %d", i, b, len(list))
			}
		}
		k := h.c.Correction()
		if k.N != lastN {
			lastN = k.N
			for _, cb := range k.Bodies {
				if !in[cb.Body] {
					t.Fatalf("step %d: corrected body %d not replayed", i, cb.Body)
				}
			}
		}
	}
	if checked < 5 || smallest >= largest || largest >= h.c.World().NumBodies() {
		t.Fatalf("%d partial replays checked, of %d to %d bodies of %d: want several, of sizes that differ, each partial",
			checked, smallest, largest, h.c.World().NumBodies())
	}
	if lastN == 0 {
		t.Fatal("no correction kept")
	}
	t.Logf("%d partial replays, %d to %d bodies", checked, smallest, largest)
}

// TakeReplayed gathers every replay between two takes: the union of the
// sets Replayed gives after each, each body once, the count of those
// replays, and full when one was full. The cubes scene as in
// TestReplayedIsTheFollowedSet, taken every fourth delivery only, so that
// a take gathers several replays.
func TestTakeReplayedGathersEveryReplay(t *testing.T) {
	const lag = 4
	h := newHarness(t, "cubes", game.Options{}, StateSync, 0)
	h.noRelays = true
	h.c.KeepReplayed = true
	var queue [][][]byte
	var list, taken []int32
	union := map[int32]bool{}
	var lastN uint64
	replays, full, several, lastLen := 0, false, 0, 0
	for i := 0; i < 150; i++ {
		if i%7 == 3 {
			h.s.Nudge(0, physics.Vec3{X: 3, Z: -2})
		}
		h.clientStep(game.Forward)
		h.deliverUp()
		h.serverSend(true)
		queue, h.down = append(queue, h.down), nil
		if len(queue) <= lag {
			continue
		}
		h.down, queue = queue[0], queue[1:]
		h.deliverDown()
		var n uint64
		var f bool
		list, n, f = h.c.Replayed(list[:0])
		if n != lastN {
			replays += int(n - lastN)
			lastN = n
			full = full || f
			lastLen = len(list)
			for _, b := range list {
				union[b] = true
			}
		}
		if i%4 != 0 {
			continue
		}
		var got int
		var gotFull bool
		taken, got, gotFull = h.c.TakeReplayed(taken[:0])
		if got != replays || gotFull != full {
			t.Fatalf("step %d: took %d replays, full %v; want %d, %v", i, got, gotFull, replays, full)
		}
		seen := map[int32]bool{}
		for _, b := range taken {
			if seen[b] || !union[b] {
				t.Fatalf("step %d: body %d taken twice or not replayed", i, b)
			}
			seen[b] = true
		}
		if len(seen) != len(union) {
			t.Fatalf("step %d: took %d bodies, the replays re-simulated %d", i, len(seen), len(union))
		}
		if len(union) > lastLen {
			several++ // more than the last replay's set
		}
		replays, full = 0, false
		clear(union)
	}
	if several < 3 {
		t.Fatalf("%d takes gathered more bodies than their last replay re-simulated: want some", several)
	}
	if _, n, _ := h.c.TakeReplayed(nil); n != replays {
		t.Fatalf("a take after a take: %d replays, want %d", n, replays)
	}
}
