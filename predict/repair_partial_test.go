package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// lateRepair runs a client of scene in mode whose server's messages come
// lag ticks late, makes its world leave the server's in one body, and
// runs until it has taken a repair and lag+40 ticks more. It returns the
// client's world hash after every step from the change on, and the
// client, which replays its repairs in full if asked.
func lateRepair(t *testing.T, scene string, mode Mode, lag int, full bool) ([]uint64, *Client) {
	t.Helper()
	h := newHarness(t, scene, game.Options{}, mode, 0)
	h.c.Config.FullRepairs = full
	var queue [][][]byte
	var hashes []uint64
	// While the repair is under way in state sync, the server nudges the
	// player's cube now and then from soon after the repair's tick, which
	// the client learns from the
	// snapshots: their corrections put jumps in the history between the
	// repair's tick and its arrival, which its replay goes through. Three
	// snapshots in four are lost, the repair's messages not.
	outage := false
	var nudgeFrom uint32
	h.noRelays = mode == StateSync
	step := func() {
		if outage {
			// A state-sync client asks when it has not been the server's
			// for a while; here at once.
			h.c.view.askXfer = true
			if tick.After(h.s.Tick(), nudgeFrom) && h.s.Tick()%16 == 0 {
				h.s.Nudge(0, physics.Vec3{X: 3, Z: 1})
			}
		}
		h.clientStep(script(h.c.Tick()))
		h.deliverUp()
		h.serverSend(true)
		if outage && h.s.Tick()%4 != 0 {
			kept := h.down[:0]
			for _, b := range h.down {
				if k, _ := wire.Kind(b); k != wire.KindSnapshot {
					kept = append(kept, b)
				}
			}
			h.down = kept
		}
		queue, h.down = append(queue, h.down), nil
		if len(queue) > lag {
			h.down = queue[0]
			queue = queue[1:]
			h.deliverDown()
		}
		hashes = append(hashes, h.c.World().Hash())
	}
	for range lag + 40 {
		step()
	}
	for h.c.Tick()%KeyEvery != 0 {
		step()
	}
	// One dynamic body, at a keyframe, so that the client's history holds
	// the change.
	var st physics.State
	h.c.world.Save(&st)
	body := len(st.Bodies) / 2
	for h.c.world.Static(body) {
		body++
	}
	st.Bodies[body].Vel.X += 1e-3
	h.c.world.Load(&st)
	hashes = hashes[:0]
	outage = mode == StateSync
	nudgeFrom = h.s.Tick() + 8 // after the repair's tick: the nudged cube is as predicted there
	for k := 0; k < 8*lag && h.c.Stats.Transfers+h.c.Stats.Patches == 0; k++ {
		step()
	}
	outage = false
	if h.c.Stats.Transfers+h.c.Stats.Patches == 0 {
		t.Fatalf("%s, %v: no repair taken", scene, mode)
	}
	for range lag + 40 {
		step()
	}
	if h.c.World().Hash() != h.s.World().Hash() && h.c.Tick() == h.s.Tick() {
		t.Errorf("%s, %v: not the server's state after the repair", scene, mode)
	}
	return hashes, h.c
}

// TestLateRepairReplaysPartially: a repair taken long after its tick
// replays only the bodies it changed and what they reach, and gives the
// client the same state, tick by tick, as replaying it in full; on the
// cubes scene and the pyramid, in both sync modes. (The session's test on
// the outage preset has snapshots' corrections between a repair's tick
// and its arrival, which its replay goes through.)
func TestLateRepairReplaysPartially(t *testing.T) {
	const lag = 120
	for _, scene := range []string{"cubes", "pyramid"} {
		for _, mode := range []Mode{StateSync, InputSync} {
			part, pc := lateRepair(t, scene, mode, lag, false)
			full, fc := lateRepair(t, scene, mode, lag, true)
			ps, fs := &pc.Stats, &fc.Stats
			n := uint64(pc.World().NumBodies())
			t.Logf("%s, %v: repairs re-simulated %d ticks, %d bodies partially (%d partial repairs); %d ticks, %d bodies in full",
				scene, mode, ps.RepairTicks, ps.RepairBodies, ps.PartialRepairs, fs.RepairTicks, fs.RepairBodies)
			if len(part) != len(full) {
				t.Fatalf("%s, %v: %d steps with partial repairs, %d with full ones", scene, mode, len(part), len(full))
			}
			for i := range part {
				if part[i] != full[i] {
					t.Fatalf("%s, %v: step %d after the change: hash %x with partial repairs, %x with full ones", scene, mode, i, part[i], full[i])
				}
			}
			if !pc.World().State().Equal(fc.World().State()) {
				t.Errorf("%s, %v: the final states differ", scene, mode)
			}
			if ps.PartialRepairs == 0 || fs.PartialRepairs != 0 {
				t.Errorf("%s, %v: %d partial repairs, %d with repairs in full", scene, mode, ps.PartialRepairs, fs.PartialRepairs)
			}
			if ps.RepairTicks < lag || ps.RepairTicks != fs.RepairTicks || fs.RepairBodies != n*fs.RepairTicks {
				t.Errorf("%s, %v: repairs re-simulated %d ticks partially, %d ticks (%d bodies) in full", scene, mode, ps.RepairTicks, fs.RepairTicks, fs.RepairBodies)
			}
			// In the pyramid every box leans on the others, and the player's
			// cube against them: what changed reaches nearly all of them.
			if ps.RepairBodies > fs.RepairBodies || scene == "cubes" && 4*ps.RepairBodies > fs.RepairBodies {
				t.Errorf("%s, %v: the partial repairs re-simulated %d bodies, the full ones %d", scene, mode, ps.RepairBodies, fs.RepairBodies)
			}
		}
	}
}
