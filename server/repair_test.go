package server

import (
	"errors"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// TestRepairHandshake: a client that asks for the state gets the bucket
// hashes of the server's state, sent again every resendTicks while it
// does not answer; an answer of another bucket count or one that does
// not decode is refused and counted; a mask gets a patch of the buckets
// named; "all" after the patch gets the whole state, counted as a
// mismatch.
func TestRepairHandshake(t *testing.T) {
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	var hashes []wire.RepairHashes
	var fragments []wire.Fragment
	step := func(flags uint8) {
		now += d
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{0},
			Flags: wire.AckValid | flags, Ack: s.Tick() - 1, Base: s.Tick() - 1})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(_ uint32, b []byte) {
			switch k, _ := wire.Kind(b); k {
			case wire.KindRepairHashes:
				var m wire.RepairHashes
				if err := wire.DecodeRepairHashes(b, &m); err != nil {
					t.Fatal(err)
				}
				hashes = append(hashes, m)
			case wire.KindFragment:
				var f wire.Fragment
				if err := wire.DecodeFragment(b, &f); err != nil {
					t.Fatal(err)
				}
				fragments = append(fragments, f)
			}
		})
	}
	step(wire.AckInSync)
	for range resendTicks + 1 {
		step(wire.AskTransfer)
	}
	if len(hashes) != 2 || hashes[0].Tick != hashes[1].Tick || len(fragments) != 0 {
		t.Fatalf("unanswered for %d ticks: %d hashes messages, %d fragments; want 2 of one tick, none", resendTicks+1, len(hashes), len(fragments))
	}
	m := hashes[0]
	if m.Whole != s.peerOf(1).xfer.rep.state.Hash() || len(m.Hashes) != wire.Buckets(s.world.NumBodies(), int(m.Size)) {
		t.Fatalf("hashes of tick %d: %d buckets of %d, whole %x", m.Tick, len(m.Hashes), m.Size, m.Whole)
	}
	answer := func(w *wire.RepairWant) error { return s.Receive(now, 1, wire.AppendRepairWant(nil, w)) }
	rejected := s.Stats.Rejected.Total()
	bad := &wire.RepairWant{Tick: m.Tick, Count: uint16(len(m.Hashes) + 1), Mask: make([]byte, 2)}
	if err := answer(bad); !errors.Is(err, protocol.ErrRejected) || s.Stats.Rejected[protocol.RejectShape] == 0 {
		t.Errorf("an answer of %d buckets to %d: %v", bad.Count, len(m.Hashes), err)
	}
	if err := s.Receive(now, 1, []byte{wire.KindRepairWant, wire.Version, 1}); !errors.Is(err, protocol.ErrRejected) {
		t.Errorf("a cut answer: %v", err)
	}
	if got := s.Stats.Rejected.Total() - rejected; got != 2 {
		t.Errorf("%d refusals counted, want 2", got)
	}
	mask := make([]byte, (len(m.Hashes)+7)/8)
	mask[0] = 1
	if err := answer(&wire.RepairWant{Tick: m.Tick, Count: uint16(len(m.Hashes)), Mask: mask}); err != nil {
		t.Fatal(err)
	}
	step(wire.AskTransfer)
	if len(fragments) == 0 || fragments[0].Tick != m.Tick {
		t.Fatalf("after the answer: %d fragments", len(fragments))
	}
	x := &s.peerOf(1).xfer
	if !wire.IsPatch(x.data) {
		t.Fatal("the answer of one bucket gets a whole state")
	}
	var got wire.TransferState
	var scr wire.PatchScratch
	if err := wire.DecodePatch(x.data, &got, &x.rep.state, 1<<20, &scr); err != nil || !got.State.Equal(&x.rep.state) {
		t.Fatalf("the patch does not give the server's state: %v", err)
	}
	if err := answer(&wire.RepairWant{Tick: m.Tick, All: true}); err != nil {
		t.Fatal(err)
	}
	ps, _ := s.PlayerStats(0)
	if wire.IsPatch(x.data) || ps.Down.PatchMismatches != 1 || ps.Down.Patches != 1 || ps.Down.PatchBuckets != 1 {
		t.Errorf("all after a patch: patch still %v, %+v", wire.IsPatch(x.data), ps.Down)
	}
}

// TestRepairUnansweredGoesWhole: hashes never answered are sent again
// until maxHashSends round trips and a half have passed (here with no lag,
// resendTicks each), then the whole state goes.
func TestRepairUnansweredGoesWhole(t *testing.T) {
	s, _ := repairRun(t, "arena", DefaultDownBudget, false, 40+maxHashSends*resendTicks, 60+maxHashSends*resendTicks, false)
	ps, _ := s.PlayerStats(0)
	if ps.Down.Unanswered != 1 || ps.Down.TransferBytes == 0 || ps.Down.Patches != 0 {
		t.Errorf("%+v", ps.Down)
	}
}

// TestRepairHashesOnALaggingLink: with acks lagging 200 ticks (a round
// trip of 3 s), a repair's unanswered hashes go again every hashEvery
// ticks, not a round trip and a half apart, and the server gives up on
// the handshake only after maxHashSends round trips and a half.
func TestRepairHashesOnALaggingLink(t *testing.T) {
	const lag = 200
	s, sc := newServer(t, 1, protocol.ModeState)
	d := tick.Duration(s.world.Config().Dt)
	hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	var hashes []uint32 // the server ticks they were sent at
	step := func(flags uint8) {
		now += d
		ack := uint32(0)
		if s.Tick() > lag {
			ack = s.Tick() - lag
		}
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{0},
			Flags: wire.AckValid | flags, Ack: ack, Base: ack})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		s.Send(now, true, func(_ uint32, b []byte) {
			if k, _ := wire.Kind(b); k == wire.KindRepairHashes {
				hashes = append(hashes, s.Tick())
			}
		})
	}
	for range lag + 10 {
		step(wire.AckInSync)
	}
	for range 5 * hashEvery {
		step(wire.AskTransfer)
	}
	if len(hashes) < 5 {
		t.Fatalf("hashes sent %d times in %d ticks of a %d-tick lag, want one every %d ticks at most", len(hashes), 5*hashEvery, lag, hashEvery)
	}
	for i := 1; i < len(hashes); i++ {
		if g := hashes[i] - hashes[i-1]; g > hashEvery {
			t.Errorf("hashes %d ticks apart, want at most %d", g, hashEvery)
		}
	}
	ps, _ := s.PlayerStats(0)
	if ps.Down.Unanswered != 0 {
		t.Errorf("gave up after %d ticks of a %d-tick lag: %+v", 5*hashEvery, lag, ps.Down)
	}
}
