package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// repairScene runs an input-sync client of the cubes scene in step with
// its server, then changes one body of the client's world (at a keyframe,
// so that its history holds the change), and runs until the client is
// back in step: it asks for a repair, answers the server's bucket hashes
// with the buckets that differ, and takes the patch. drop, when not nil,
// decides which messages are lost (up: client to server; n: the message's
// number in its direction).
func repairScene(t *testing.T, drop func(up bool, n int, b []byte) bool) *harness {
	t.Helper()
	h := newHarness(t, "cubes", game.Options{}, InputSync, 0)
	h.run(40, 0)
	for h.c.Tick()%KeyEvery != 0 {
		h.run(1, 0)
	}
	var st physics.State
	h.c.world.Save(&st)
	body := len(st.Bodies) / 2
	st.Bodies[body].Vel.X += 1e-6
	h.c.world.Load(&st)
	nUp, nDown := 0, 0
	for k := 0; k < 400 && (h.c.Stats.Transfers == 0 || h.c.view.askXfer); k++ {
		h.clientStep(script(h.c.Tick()))
		kept := h.up[:0]
		for _, b := range h.up {
			if nUp++; drop == nil || !drop(true, nUp, b) {
				kept = append(kept, b)
			}
		}
		h.up = kept
		h.deliverUp()
		h.serverSend(true)
		kept = h.down[:0]
		for _, b := range h.down {
			if nDown++; drop == nil || !drop(false, nDown, b) {
				kept = append(kept, b)
			}
		}
		h.down = kept
		h.deliverDown()
	}
	h.run(20, 0)
	return h
}

// TestRepairByBuckets: a client whose state differs from the server's in
// a few bodies gets only the buckets that differ, and ends bit for bit in
// step with the server, in a fraction of the whole state's bytes.
func TestRepairByBuckets(t *testing.T) {
	h := repairScene(t, nil)
	checkRepaired(t, h)
}

// TestRepairByBucketsWithLoss: the first two hashes messages, the first
// answer and every third message besides are lost; the hashes and the
// answer are sent again until heard, and the repair still ends with a
// patch, in step.
func TestRepairByBucketsWithLoss(t *testing.T) {
	hashes, wants := 0, 0
	h := repairScene(t, func(up bool, n int, b []byte) bool {
		switch k, _ := wire.Kind(b); k {
		case wire.KindRepairHashes:
			if hashes++; hashes <= 2 {
				return true
			}
		case wire.KindRepairWant:
			if wants++; wants <= 1 {
				return true
			}
		}
		return n%3 == 0
	})
	if hashes < 3 || wants < 2 {
		t.Errorf("%d hashes messages and %d answers sent: the lost ones were not sent again", hashes, wants)
	}
	checkRepaired(t, h)
}

// TestPatchMismatchGetsTheWholeState: when the patched state does not hash
// as the server said (here the hashes message's whole-state hash is
// changed on the way), the client counts the mismatch and asks for all;
// the server sends the whole state under the same tick, and the client
// takes it and is back in step, without a Have of the patch refused or a
// repair started again.
func TestPatchMismatchGetsTheWholeState(t *testing.T) {
	tampered := 0
	h := repairScene(t, func(up bool, n int, b []byte) bool {
		if k, _ := wire.Kind(b); k == wire.KindRepairHashes && tampered == 0 {
			var m wire.RepairHashes
			if err := wire.DecodeRepairHashes(b, &m); err != nil {
				t.Fatal(err)
			}
			m.Whole ^= 1
			copy(b, wire.AppendRepairHashes(nil, &m))
			tampered++
		}
		return false
	})
	ps, _ := h.s.PlayerStats(0)
	d := ps.Down
	t.Logf("client: %d transfers, %d patches, %d mismatches, %d rejected; server: %d patches, %d all, %d transfers started",
		h.c.Stats.Transfers, h.c.Stats.Patches, h.c.Stats.PatchMismatches, h.c.Stats.Rejected.Total(), d.Patches, d.AllAnswers, d.Transfers)
	if tampered == 0 || h.c.Stats.PatchMismatches != 1 {
		t.Fatalf("tampered %d, %d mismatches: want 1 each", tampered, h.c.Stats.PatchMismatches)
	}
	if r := h.s.Stats.Rejected.Total(); r != 0 {
		t.Errorf("the server refused %d messages of the client (a stale Have of the patch?)", r)
	}
	if d.Transfers != 1 {
		t.Errorf("%d transfers started, want the one repair (its patch, then the whole state)", d.Transfers)
	}
	if h.c.Tick() != h.s.Tick() || h.c.World().Hash() != h.s.World().Hash() {
		t.Errorf("not in step: client tick %d hash %x, server tick %d hash %x", h.c.Tick(), h.c.World().Hash(), h.s.Tick(), h.s.World().Hash())
	}
}

// checkRepaired checks that h's client took a patch of fewer buckets than
// the whole and is in step with the server.
func checkRepaired(t *testing.T, h *harness) {
	t.Helper()
	ps, _ := h.s.PlayerStats(0)
	d := ps.Down
	n := wire.Buckets(h.s.World().NumBodies(), wire.BucketBodies(h.s.World().NumBodies()))
	t.Logf("client: %d transfers, %d patches, %d mismatches; server: %d patches of %d buckets (of %d), %d fragment bytes, %d all",
		h.c.Stats.Transfers, h.c.Stats.Patches, h.c.Stats.PatchMismatches, d.Patches, d.PatchBuckets, n, d.TransferBytes, d.AllAnswers)
	if h.c.Stats.Patches == 0 || d.Patches == 0 || h.c.Stats.PatchMismatches != 0 || d.AllAnswers != 0 {
		t.Fatalf("no patch taken: client %d patches, %d mismatches; server %d patches, %d answers of all", h.c.Stats.Patches, h.c.Stats.PatchMismatches, d.Patches, d.AllAnswers)
	}
	if d.PatchBuckets == 0 || d.PatchBuckets >= d.Patches*uint64(n)/4 {
		t.Errorf("%d buckets sent in %d patches, of %d buckets a state", d.PatchBuckets, d.Patches, n)
	}
	var st physics.State
	h.s.World().Save(&st)
	whole := len(wire.AppendTransfer(nil, &wire.TransferState{State: st}))
	if d.TransferBytes*4 > uint64(whole) {
		t.Errorf("the repair sent %d bytes of fragments, the whole state is %d", d.TransferBytes, whole)
	}
	if h.c.Tick() != h.s.Tick() || h.c.World().Hash() != h.s.World().Hash() {
		t.Errorf("not in step: client tick %d hash %x, server tick %d hash %x", h.c.Tick(), h.c.World().Hash(), h.s.Tick(), h.s.World().Hash())
	}
}

// TestRepairHashesRefused: hashes for another body count are refused and
// counted; hashes the client did not ask for are ignored as stale.
func TestRepairHashesRefused(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.run(20, 0)
	n := h.c.World().NumBodies()
	msg := func(bodies int) []byte {
		size := wire.BucketBodies(bodies)
		return wire.AppendRepairHashes(nil, &wire.RepairHashes{Tick: h.c.Tick() - 2, Size: uint16(size), Bodies: uint32(bodies),
			Hashes: make([]uint64, wire.Buckets(bodies, size))})
	}
	stale := h.c.Stats.StaleStates
	if err := h.c.Receive(msg(n)); err != nil || h.c.Stats.StaleStates != stale+1 || h.c.rep.due {
		t.Fatalf("hashes not asked for: %v, stale %d (was %d), answer due %v", err, h.c.Stats.StaleStates, stale, h.c.rep.due)
	}
	h.c.view.askXfer = true
	if err := h.c.Receive(msg(n + 1)); !errors.Is(err, protocol.ErrRejected) || h.c.Stats.Rejected[protocol.RejectShape] != 1 {
		t.Fatalf("hashes of %d bodies for a world of %d: %v", n+1, n, err)
	}
	if err := h.c.Receive(msg(n)); err != nil || !h.c.rep.due || h.c.rep.all {
		t.Fatalf("hashes asked for: %v, answer due %v, all %v", err, h.c.rep.due, h.c.rep.all)
	}
}

// TestStateAtPastAnAnchor: when the keyframe of a tick's span is an anchor
// after it (a state the client took from the server later in the span),
// the client still rebuilds its state at the tick, from the span before,
// and leaves that keyframe and its world as they were.
func TestStateAtPastAnAnchor(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	// Snapshots two spans late: the client keeps the keyframes since.
	h.run(40+int((5+KeyEvery-h.c.Tick()%KeyEvery)%KeyEvery), 2*KeyEvery)
	if h.c.Tick()%KeyEvery != 5 {
		t.Fatalf("at tick %d", h.c.Tick())
	}
	S := h.c.Tick() - 3 // two ticks into its span, the anchor a tick after
	var want, next physics.State
	if !h.c.stateAt(S, &want) || !h.c.stateAt(S+1, &next) {
		t.Fatal("the client cannot rebuild its recent ticks")
	}
	k := h.c.hist.key(S)
	k.tick = S + 1
	k.state.CopyFrom(&next)
	world := h.c.World().Hash()
	var got physics.State
	if !h.c.stateAt(S, &got) {
		t.Fatal("no state past the anchor")
	}
	if !got.Equal(&want) {
		t.Error("the state rebuilt from the span before differs")
	}
	if k := h.c.hist.key(S); k.tick != S+1 || !k.valid || !k.state.Equal(&next) {
		t.Errorf("the anchor is now the keyframe of tick %d", k.tick)
	}
	if h.c.World().Hash() != world {
		t.Error("the world moved")
	}
}

// TestLateRepairKeepsFewKeyframes: a repair that arrives 160 ticks late is
// replayed to the present without keeping a keyframe of the ticks before
// the newest server message's span (here an input-sync client's relay),
// which no rewind can need: the keyframes it leaves are those of the
// ticks in flight, not of the whole replay.
func TestLateRepairKeepsFewKeyframes(t *testing.T) {
	const lag = 160
	h := newHarness(t, "cubes", game.Options{}, InputSync, 0)
	var queue [][][]byte
	step := func() {
		h.clientStep(script(h.c.Tick()))
		h.deliverUp()
		h.serverSend(true)
		queue, h.down = append(queue, h.down), nil
		if len(queue) > lag {
			h.down = queue[0]
			queue = queue[1:]
			h.deliverDown()
		}
	}
	for range lag + 40 {
		step()
	}
	// The client's world leaves the server's (one body, at a keyframe, so
	// that its history holds the change): it mispredicts every snapshot
	// from then on and asks for a repair.
	for h.c.Tick()%KeyEvery != 0 {
		step()
	}
	var st physics.State
	h.c.world.Save(&st)
	st.Bodies[len(st.Bodies)/2].Vel.X += 1e-6
	h.c.world.Load(&st)
	// After every step a replay makes of a tick well before the newest
	// snapshot's (the hook changes nothing): whether the replay kept the
	// keyframe of that tick's span.
	replayed, kept := 0, 0
	h.c.Perturb = func(_ *physics.World, tk uint32, _ int) {
		if !h.c.view.haveNewest || int32(h.c.view.newest-tk) <= 2*KeyEvery+int32(h.c.Config.SyncTest) {
			return
		}
		replayed++
		if k, ok := h.c.hist.keyBefore(tk); ok && k.tick == tk-tk%KeyEvery {
			kept++
		}
	}
	taken := h.c.Stats.Transfers + h.c.Stats.Patches
	for k := 0; k < 6*lag && h.c.Stats.Transfers+h.c.Stats.Patches == taken; k++ {
		step()
	}
	if h.c.Stats.Transfers+h.c.Stats.Patches == taken {
		t.Fatal("no repair taken")
	}
	if replayed == 0 || kept != 0 {
		t.Fatalf("a repair taken %d ticks late replayed %d ticks well before the newest snapshot and kept the keyframes of %d", lag, replayed, kept)
	}
	t.Logf("%d ticks replayed before the newest snapshot, no keyframe kept", replayed)
}
