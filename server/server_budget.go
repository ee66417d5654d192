package server

import (
	"time"

	"github.com/cubelab/cube/netcode/wire"
)

// How a client's down budget (BytesPerSecond) is shared: one token bucket
// per client pays for its snapshots and its transfers' fragments, and a
// window of the bytes sent to it over the last second bounds both, and its
// relays and repair hashes, so that no second holds more than the budget
// (a bucket alone lets a second hold its rate and a full bucket besides,
// and budget lets a snapshot overdraw to minSnapshot).
//
// A join's whole state (a client joining a moved world, with no state of
// its own and sent nothing else meanwhile) is the exception: it goes at
// fragmentsPerTick, outside the bucket and the window (serverXfer.join),
// counted apart in DownStats.JoinBytes.
//
// A repair goes first: its fragments are paid for before the tick's
// snapshot and may draw the bucket below zero, and while the client lacks
// some of them, or the repair's hashes wait for their answer, it gets a
// snapshot only every repairSnapshotEvery ticks, each at most what the
// bucket holds (minSnapshot when the fragments emptied it): at full rate
// the snapshots alone fill the window, and the hashes would wait for a
// second that never comes. At 256 kbit/s the snapshots then take about
// 4 kB/s and the transfer the rest, about 28 kB/s; the snapshots keep
// correcting the client's own cube and keep its acks moving, which is how
// the server learns the transfer was taken.

// windowedBudget is the least budget, bytes a second, that the window
// bounds: a smaller one could not hold a fragment and a snapshot in a
// second, and has the bucket only.
const windowedBudget = 2 * wire.MaxMessage

// repairSnapshotEvery is the ticks between snapshots while a transfer the
// client lacks fragments of is under way, with a budget.
const repairSnapshotEvery = 4

// snapshotSlack is kept free in the window besides a snapshot's limit:
// what a snapshot may take beyond the limit budget gives it (its header's
// varints), and room for the next tick's relay (a few tens of bytes: the
// other players' new inputs), so that relays are seldom held back.
const snapshotSlack = 128

// windowed reports whether the window bounds the bytes sent.
func (s *Server) windowed() bool { return s.BytesPerSecond >= windowedBudget }

// affords reports whether p's budget allows a fragment of n bytes now
// and, if so, pays for it: the bucket is not empty, and the bytes sent to
// p over the last second, with n and the room of the tick's smallest
// snapshot, stay within BytesPerSecond.
func (s *Server) affords(p *peer, n int) bool {
	if p.st.tokens <= 0 {
		return false
	}
	if s.windowed() && float64(s.sentLastSecond(p)+n+minSnapshot+snapshotSlack) > s.BytesPerSecond {
		return false
	}
	p.st.tokens -= float64(n)
	return true
}

// snapshotRoom readies p's bucket for the tick's snapshot and reports
// whether the window leaves room for one: the bucket is refilled and held
// to what the window leaves, so that budget gives the snapshot no more.
func (s *Server) snapshotRoom(p *peer, now time.Duration) bool {
	if s.BytesPerSecond <= 0 {
		return true
	}
	if x := &p.xfer; x.active && (x.rep.waiting || x.lacking()) && s.Tick()%repairSnapshotEvery != 0 {
		return false
	}
	if !s.windowed() {
		return true
	}
	s.refill(p, now)
	left := s.BytesPerSecond - float64(s.sentLastSecond(p)+snapshotSlack)
	if left < minSnapshot {
		return false
	}
	p.st.tokens = min(p.st.tokens, left)
	return true
}

// relayRoom reports whether the window leaves room for a relay of n
// bytes: one left out is said again by the next (a relay runs from the
// client's newest confirmed tick), so the window holds relays too.
func (s *Server) relayRoom(p *peer, n int) bool {
	return s.BytesPerSecond <= 0 || !s.windowed() || float64(s.sentLastSecond(p)+n) <= s.BytesPerSecond
}

// refill adds to p's token bucket what BytesPerSecond gives since it was
// last refilled, as budget does for a snapshot (at the same now, budget
// then adds nothing).
func (s *Server) refill(p *peer, now time.Duration) {
	if p.st.snapped || p.xfer.refilled {
		p.st.tokens += s.BytesPerSecond * (now - p.st.lastSnap).Seconds()
	}
	p.st.lastSnap, p.xfer.refilled = now, true
	p.st.tokens = min(p.st.tokens, wire.MaxMessage)
}

// sentLastSecond returns the bytes sent to p in the last second's ticks,
// this one's so far included.
func (s *Server) sentLastSecond(p *peer) int {
	return p.xfer.win.sum(p.xfer.win.now, s.ticksPerSecond())
}

// count counts n bytes sent to p now.
func (s *Server) count(p *peer, n int) {
	p.stats.Down.Bytes += uint64(n)
	p.xfer.win.add(p.xfer.win.now, n)
}

// sentTicks bounds the ticks of a second the window holds.
const sentTicks = 256

// sentWindow holds the bytes sent to one client in each of the last
// sentTicks tick-long spans of time (not server ticks: a clocked server
// may step twice in a turn, or not at all); a slot is valid only for the
// span it holds.
type sentWindow struct {
	bytes [sentTicks]int
	tick  [sentTicks]uint32
	now   uint32 // the span of the Send under way: its time over the tick's
}

// sendingAt makes the span of time now p's current one.
func (s *Server) sendingAt(p *peer, now time.Duration) {
	p.xfer.win.now = uint32(now / s.clock.tickDur)
}

// add counts n bytes sent in span t.
func (w *sentWindow) add(t uint32, n int) {
	k := t % sentTicks
	if w.tick[k] != t {
		w.tick[k], w.bytes[k] = t, 0
	}
	w.bytes[k] += n
}

// sum returns the bytes sent in the spans (t-ticks, t].
func (w *sentWindow) sum(t uint32, ticks int) int {
	total := 0
	for d := range uint32(ticks) {
		if k := (t - d) % sentTicks; w.tick[k] == t-d {
			total += w.bytes[k]
		}
	}
	return total
}

// ticksPerSecond returns the server ticks in a second, the window of the
// down rate.
func (s *Server) ticksPerSecond() int {
	return min(sentTicks, max(1, int(time.Second/s.clock.tickDur)))
}
