package server

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/protocol"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/wire"
)

// TestJoinOutsideBudget: a client that joins the cubes scene once it has
// moved gets the whole state at fragmentsPerTick, outside the down budget
// and its window: in its first second it is sent several times the
// budget, all of it counted as its join's (JoinBytes), so that it plays
// within a couple of seconds rather than after the 10 s the 330 kB state
// takes at 256 kbit/s. (Repairs stay inside the budget:
// TestRepairWithinBudget.)
func TestJoinOutsideBudget(t *testing.T) {
	w, sc, err := game.Build("cubes", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	s := New(w, sc, protocol.ModeState, cfg)
	d := tick.Duration(s.world.Config())
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
	for range 64 { // a second
		now += d
		push()
		s.Send(now, true, func(c uint32, b []byte) {
			if k, _ := wire.Kind(b); c == 2 && k == wire.KindFragment {
				frag += len(b)
			}
		})
	}
	if float64(frag) < 4*cfg.BytesPerSecond {
		t.Errorf("the join sent %d bytes of fragments in its first second, want at least 4 times the budget (%.0f B/s)", frag, cfg.BytesPerSecond)
	}
	st, ok := s.PlayerStats(int(wl.Player))
	if !ok {
		t.Fatal("no stats for the joining player")
	}
	if st.Down.JoinBytes == 0 || st.Down.JoinBytes != st.Down.TransferBytes || st.Down.Bytes-st.Down.JoinBytes > uint64(cfg.BytesPerSecond) {
		t.Errorf("down stats %+v: want every fragment counted as the join's, and the rest within a second's budget", st.Down)
	}
	t.Logf("join: %d bytes of fragments in its first second (budget %.0f B/s)", frag, cfg.BytesPerSecond)
}
