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

// repairRun drives a server of scene with one state-sync client that
// acknowledges every tick, asks for a transfer for ask ticks (saying it
// has every fragment it was sent when have is true, until it has them
// all), then stops asking, for ticks in all, with whole repairs (no
// bucket handshake, which this client does not answer) when wholeRepairs
// is true. It returns the server and the bytes sent to the client at each
// tick, the Welcome first.
func repairRun(t *testing.T, scene string, budget float64, wholeRepairs bool, ask, ticks int, have bool) (*Server, []int) {
	t.Helper()
	w, sc, err := game.Build(scene, physics.DefaultConfig(), game.Options{Players: 1})
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.BytesPerSecond, cfg.WholeRepairs = budget, wholeRepairs
	s := New(w, sc, protocol.ModeState, cfg)
	d := tick.Duration(s.world.Config().Dt)
	wel := hello(t, s, sc, 0, 1, 1)
	now := time.Duration(0)
	sent := []int{len(wire.AppendWelcome(nil, &wel))} // the tick of the Hello
	var got []byte
	count := 0
	for k := 0; k < ticks; k++ {
		now += d
		flags := uint8(wire.AckInSync)
		if k >= 10 && k < 10+ask && !(have && whole(got, count)) {
			flags = wire.AskTransfer
		}
		b, _ := wire.AppendInput(nil, &wire.Input{Player: 0, First: s.Tick(), Inputs: []game.Input{game.Forward},
			Flags: wire.AckValid | flags, Ack: s.Tick() - 1, Base: s.Tick() - 1})
		if err := s.Receive(now, 1, b); err != nil {
			t.Fatal(err)
		}
		if x := &s.peerOf(1).xfer; have && x.active && x.count > 0 && len(got) == (x.count+7)/8 {
			h := wire.AppendHave(nil, &wire.Have{Tick: x.tick, Count: uint16(x.count), Got: got})
			if err := s.Receive(now, 1, h); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Advance(now); err != nil {
			t.Fatal(err)
		}
		n := 0
		s.Send(now, true, func(_ uint32, b []byte) {
			n += len(b)
			if k, _ := wire.Kind(b); k == wire.KindFragment {
				var f wire.Fragment
				if err := wire.DecodeFragment(b, &f); err != nil {
					t.Fatal(err)
				}
				if count != int(f.Count) {
					got, count = make([]byte, (int(f.Count)+7)/8), int(f.Count)
				}
				got[f.Index/8] |= 1 << (f.Index % 8)
			}
		})
		sent = append(sent, n)
	}
	return s, sent
}

// whole reports whether got names every one of count fragments.
func whole(got []byte, count int) bool {
	for i := range count {
		if got[i/8]&(1<<(i%8)) == 0 {
			return false
		}
	}
	return count > 0
}

// maxSecond returns the most bytes of any perSecond ticks in a row.
func maxSecond(sent []int, perSecond int) int {
	most, sum := 0, 0
	for i, n := range sent {
		sum += n
		if i >= perSecond {
			sum -= sent[i-perSecond]
		}
		most = max(most, sum)
	}
	return most
}

// TestDownStatsCountWhatWasSent: the server's count of the bytes sent to a
// client is what went through send, its transfer bytes are part of it,
// and a transfer the client stopped asking for is counted as taken with
// its duration.
func TestDownStatsCountWhatWasSent(t *testing.T) {
	s, sent := repairRun(t, "arena", DefaultDownBudget, true, 100, 140, false)
	total := 0
	for _, n := range sent {
		total += n
	}
	ps, _ := s.PlayerStats(0)
	d := ps.Down
	if d.Bytes != uint64(total) {
		t.Errorf("counted %d bytes sent, send saw %d", d.Bytes, total)
	}
	if d.Transfers != 1 || d.TransferBytes == 0 || d.TransferBytes >= d.Bytes {
		t.Errorf("transfers %d of %d bytes, of %d sent in all", d.Transfers, d.TransferBytes, d.Bytes)
	}
	if d.Done != 1 || d.MaxTicks < 98 || d.MaxTicks > 101 || d.DoneTicks != uint64(d.MaxTicks) {
		t.Errorf("taken %d, in %d ticks (at most %d), want 1 in about 100", d.Done, d.DoneTicks, d.MaxTicks)
	}
}

// TestRepairWithinBudget: while a repair of the cubes scene's whole state
// is sent, the bytes sent to the client over any second stay within its
// budget, and the transfer still goes whole (the client says it has each
// fragment it was sent).
func TestRepairWithinBudget(t *testing.T) {
	const budget = DefaultDownBudget
	s, sent := repairRun(t, "cubes", budget, true, 64*20, 64*21, true)
	ps0, _ := s.PlayerStats(0)
	t.Logf("sent %d bytes, %d of them fragments", ps0.Down.Bytes, ps0.Down.TransferBytes)
	if most := maxSecond(sent, 64); most > budget {
		t.Errorf("%d bytes in a second during a repair, the budget is %d", most, budget)
	}
	d := ps0.Down
	t.Logf("the transfer took %d ticks", d.MaxTicks)
	if d.Transfers != 1 || d.Done != 1 || d.MaxTicks > staleTransfer {
		t.Errorf("%d transfers started, %d taken, in %d ticks: want 1, within %d ticks", d.Transfers, d.Done, d.MaxTicks, staleTransfer)
	}
}
