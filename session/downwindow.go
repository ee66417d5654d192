package session

import (
	"time"

	"github.com/cubelab/cube/netcode/wire"
)

// downWindow keeps the bytes the server sent one client at each of its
// last turns, a second's worth, and the most any second held: the down
// rate over any 1 s window that a budget must bound (an average over the
// run hides a burst).
type downWindow struct {
	ring  []uint64 // bytes sent at each of the last turns
	next  int
	sum   uint64 // of the ring
	max   uint64 // the largest sum seen
	last  uint64 // the server's count of bytes sent at the last turn
	known bool   // last is set
}

// newDownWindow returns a window of turns server turns (a second's).
func newDownWindow(turns int) downWindow { return downWindow{ring: make([]uint64, max(1, turns))} }

// note takes the server's count of bytes sent to the client after a turn.
// A count that went back (the client's slot taken by another) starts again.
func (w *downWindow) note(total uint64) {
	if !w.known || total < w.last {
		w.last, w.known = total, true
		return
	}
	d := total - w.last
	w.last = total
	w.sum += d - w.ring[w.next]
	w.ring[w.next] = d
	w.next = (w.next + 1) % len(w.ring)
	w.max = max(w.max, w.sum)
}

// noteDown takes, after a server turn, what the server sent each client.
func (s *Session) noteDown() {
	if len(s.down) != len(s.Clients) {
		s.down = make([]downWindow, len(s.Clients))
		for i := range s.down {
			s.down[i] = newDownWindow(int(time.Second / s.tick))
		}
	}
	for i, c := range s.Clients {
		if !c.Welcomed() {
			continue
		}
		if ps, ok := s.Server.PlayerStats(c.Slot()); ok {
			s.down[i].note(ps.Down.Bytes - ps.Down.JoinBytes) // a join's whole state goes outside the budget
		}
	}
}

// fillDown puts in m what the server sent client i: the most bytes of any
// second, and its transfers' cost.
func (s *Session) fillDown(i int, m *Summary) {
	if i < len(s.down) {
		m.DownMax1s = s.down[i].max
	}
	c := s.Clients[i]
	if !c.Welcomed() {
		return
	}
	ps, ok := s.Server.PlayerStats(c.Slot())
	if !ok {
		return
	}
	d := &ps.Down
	t := &m.TransferCost
	t.Bytes, t.Started, t.Taken, t.MaxTicks = d.TransferBytes, d.Transfers, d.Done, d.MaxTicks
	t.Patches, t.PatchBuckets, t.AllAnswers, t.PatchMismatches, t.Unanswered = d.Patches, d.PatchBuckets, d.AllAnswers, d.PatchMismatches, d.Unanswered
	t.Superseded, t.Abandoned = d.Superseded, d.Abandoned
	n := s.Server.World().NumBodies()
	t.Buckets = wire.Buckets(n, wire.BucketBodies(n))
	if d.Done > 0 {
		t.MeanTicks = float64(d.DoneTicks) / float64(d.Done)
	}
}
