package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// TestJoinOutsideBudget: a client that joins the cubes scene once it has
// moved gets the whole state at fragmentsPerTick, outside the down budget
// and its window: every fragment goes in the first turn (count /
// fragmentsPerTick ticks from the Welcome's), more than the budget allows, all
// of it counted as its join's (JoinBytes), so that it plays at once
// rather than after the seconds the state, even compressed, takes at
// 256 kbit/s. (Repairs stay inside the budget:
// TestRepairWithinBudget.)
func TestJoinOutsideBudget(t *testing.T) {
	w, sc, err := game.Build("cubes", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	s := New(w, sc, protocol.ModeState, cfg)
	d := tick.Duration(s.world.Config().Dt)
	now := time.Duration(0)
	if wl := hello(t, s, sc, now, 1, 1); wl.Transfer {
		t.Fatal("the first client of a world as built got a transfer")
	}
	push := func() {
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Forward},
			Flags: wire.AckValid | wire.AckInSync, Ack: s.Tick() - 1, Base: s.Tick() - 1})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 { // the first player's cube moves the world
		now += d
		push()
		s.Send(now, true, func(uint32, []byte) {})
	}
	wl := hello(t, s, sc, now, 2, 2)
	if !wl.Transfer {
		t.Fatal("a client joining a moved world was not sent the whole state")
	}
	frag := 0
	x := &s.peerOf(2).xfer
	turn := (x.count + fragmentsPerTick - 1) / fragmentsPerTick
	for range turn {
		now += d
		push()
		s.Send(now, true, func(c uint32, b []byte) {
			if k, _ := wire.Kind(b); c == 2 && k == wire.KindFragment {
				frag += len(b)
			}
		})
	}
	sent := 0
	for _, ok := range x.sent {
		if ok {
			sent++
		}
	}
	if allowed := cfg.BytesPerSecond * float64(turn) * d.Seconds(); sent != x.count || float64(frag) <= allowed {
		t.Errorf("the join sent %d of %d fragments (%d bytes after the Welcome's tick) in %d ticks, want all, more than the budget's %.0f B", sent, x.count, frag, turn, allowed)
	}
	st, ok := s.PlayerStats(int(wl.Player))
	if !ok {
		t.Fatal("no stats for the joining player")
	}
	if st.Down.JoinBytes == 0 || st.Down.JoinBytes != st.Down.TransferBytes || st.Down.Bytes-st.Down.JoinBytes > uint64(cfg.BytesPerSecond) {
		t.Errorf("down stats %+v: want every fragment counted as the join's, and the rest within a second's budget", st.Down)
	}
	t.Logf("join: %d fragments, %d bytes, in %d ticks (budget %.0f B/s)", x.count, frag, turn, cfg.BytesPerSecond)
}
