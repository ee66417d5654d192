package server

import (
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// serverXfer is a transfer being sent.
type serverXfer struct {
	active bool
	tick   uint32
	data   []byte // the transfer's bytes (wire.AppendTransfer or AppendPatch)
	z      []byte // as they travel: compressed, cut in fragments
	count  int
	got    []byte   // bitmap of the fragments the client has
	sentAt []uint32 // the server tick each fragment was last sent at
	sent   []bool   // whether it was sent at all
	next   int      // the next fragment to consider sending
	win    sentWindow
	rep    serverRepair // a repair by buckets (server_repair.go)
	// complete: the client said it has every fragment, so it put the
	// transfer together: if it still asks, it asks for a new one.
	complete bool
	// refilled: the token bucket was refilled for a fragment, so it has a
	// time to refill from even before the client's first snapshot.
	refilled bool
	// join: the whole state for a client that joins a moved world and has
	// no state of its own. It goes at fragmentsPerTick, outside the
	// budget and its window (see server_budget.go): a player waiting to
	// join is sent nothing else, and the cubes scene's 330 kB would keep
	// it out for 10 s at 256 kbit/s.
	join bool
}

// DownStats is what the server sent one client: every byte, for its down
// rate, and the transfers (joins and repairs) with what they cost.
type DownStats struct {
	Bytes         uint64 // every byte sent to it
	TransferBytes uint64 // of those, the transfers' fragments
	JoinBytes     uint64 // of those, the fragments of its join's whole state, outside the budget
	Transfers     uint64 // transfers started (a newer one replacing a stale one counts again)
	Done          uint64 // transfers it took: it stopped asking and acknowledged their tick
	DoneTicks     uint64 // their server ticks from start to taken, summed
	MaxTicks      uint32 // the longest of them
	// Repairs by buckets (server_repair.go): patches sent and their
	// buckets, answers of "all" (a client that could not rebuild its
	// state), patches that did not give the server's state (the client
	// asked for all after one), handshakes never answered.
	Patches, PatchBuckets, AllAnswers, PatchMismatches, Unanswered uint64
	// Superseded counts transfers the client put together (it said it
	// had every fragment) and that a newer one replaced because the
	// client still asked; Abandoned, those replaced while it still lacked
	// fragments: their progress was lost.
	Superseded, Abandoned uint64
}

// finish ends the transfer, taken by the client at server tick now, and
// counts how long it took.
func (x *serverXfer) finish(now uint32, d *DownStats) {
	x.active = false
	took := now - x.tick
	d.Done++
	d.DoneTicks += uint64(took)
	d.MaxTicks = max(d.MaxTicks, took)
}

// cut readies x.data to be sent in fragments, compressed with z, none of
// them sent yet.
func (x *serverXfer) cut(z *wire.Compressor) {
	x.z = z.Compress(x.z[:0], x.data)
	x.next, x.complete = 0, false
	x.count = wire.FragmentCount(len(x.z))
	x.got = append(x.got[:0], make([]byte, (x.count+7)/8)...)
	x.sentAt = append(x.sentAt[:0], make([]uint32, x.count)...)
	x.sent = append(x.sent[:0], make([]bool, x.count)...)
}

// staleTransfer is how many ticks after a transfer began a client that
// still asks for one gets a newer one instead: by then the client could
// no longer replay from the transfer's tick (its history is RingSize
// ticks, and it runs ahead of the server).
const staleTransfer = tick.RingSize - 128

// resendTicks is the least time before a fragment is sent again.
const resendTicks = 16

// fragmentsPerTick bounds the fragments a transfer sends each tick: about
// 300 kB/s at 64 Hz, so that the cubes scene's whole state (about 330 kB)
// gets across a link that loses half its packets well within the client's
// history.
const fragmentsPerTick = 4

// startTransfer starts sending the server's whole state to p.
func (s *Server) startTransfer(p *peer) {
	x := &p.xfer
	x.active, x.tick, x.next, x.join = true, s.Tick(), 0, false
	p.needXfer = false
	x.rep.waiting, x.rep.patch = false, false
	x.data = wire.AppendTransfer(x.data[:0], &wire.TransferState{Chain: s.players[p.player].chain, AllChain: s.sim.allChain,
		Events: s.sim.nevents, Skipped: s.sim.skipped, State: *s.world.State()})
	x.cut(&s.buf.z)
	// The views stay: a client mending its history goes on acknowledging
	// the snapshots it took (a joining one's first view is set by sendTo).
	s.Stats.Transfers++
	p.stats.Down.Transfers++
}

// onHave takes the fragments a client says it has.
func (s *Server) onHave(now time.Duration, p *peer, b []byte) error {
	if err := wire.DecodeHave(b, &s.buf.have); err != nil {
		return s.reject(p, protocol.RejectMalformed, "%v", err)
	}
	if p == nil || !p.xfer.active || s.buf.have.Tick != p.xfer.tick {
		return nil // about a transfer no longer under way
	}
	x := &p.xfer
	if int(s.buf.have.Count) != x.count {
		return s.reject(p, protocol.RejectShape, "have of %d fragments, the transfer has %d", s.buf.have.Count, x.count)
	}
	for i, g := range s.buf.have.Got {
		if g&^x.got[i] != 0 {
			p.lastHeard = now // a fragment it did not have: progress
		}
		x.got[i] |= g
	}
	x.complete = !x.lacking()
	return nil
}

// sendFragments sends the next fragments the client lacks, in turn: each
// once, and again when the client has not said it has it a round trip and
// a half later (a fragment lost, or its Have), or, for a transfer that
// takes longer than that to go round, on its next turn. With a budget
// (BytesPerSecond), each fragment is paid for from the snapshots' token
// bucket, before the snapshot of the tick: see affords.
func (s *Server) sendFragments(p *peer, now time.Duration, send func([]byte)) {
	x := &p.xfer
	t := s.Tick()
	budget := s.BytesPerSecond > 0 && !x.join
	if budget {
		s.refill(p, now)
	}
	again := s.resendAfter(p, uint32((x.count+fragmentsPerTick-1)/fragmentsPerTick)) // at most a turn
	sent := 0
	for tried := 0; sent < fragmentsPerTick && tried < x.count; tried++ {
		i := x.next
		x.next = (x.next + 1) % x.count
		if x.got[i/8]&(1<<(i%8)) != 0 || x.sent[i] && t-x.sentAt[i] < again {
			continue
		}
		if !s.sendFragment(p, i, budget, send) {
			x.next = i // its turn stays
			return
		}
		sent++
	}
	// What the tick leaves (every missing fragment sent within the wait):
	// the longest unanswered sent again early, at most once in
	// resendTicks. On a lossy link a copy sent while the Have is on its
	// way saves a round trip, and the budget's spare room costs nothing.
	for sent < fragmentsPerTick {
		i, oldest := -1, uint32(0)
		for k := range x.count {
			if x.got[k/8]&(1<<(k%8)) == 0 && x.sent[k] && t-x.sentAt[k] >= resendTicks && t-x.sentAt[k] > oldest {
				i, oldest = k, t-x.sentAt[k]
			}
		}
		if i < 0 || !s.sendFragment(p, i, budget, send) {
			return
		}
		sent++
	}
}

// sendFragment sends fragment i of p's transfer, paid from the budget
// when budget is true, and reports whether it went.
func (s *Server) sendFragment(p *peer, i int, budget bool, send func([]byte)) bool {
	x := &p.xfer
	s.buf.out = wire.AppendFragment(s.buf.out[:0], x.tick, x.z, i)
	if budget && !s.affords(p, len(s.buf.out)) {
		return false
	}
	x.sent[i], x.sentAt[i] = true, s.Tick()
	send(s.buf.out)
	s.Stats.Fragments++
	if x.join {
		p.stats.Down.Bytes += uint64(len(s.buf.out))
		p.stats.Down.JoinBytes += uint64(len(s.buf.out))
	} else {
		s.count(p, len(s.buf.out))
	}
	p.stats.Down.TransferBytes += uint64(len(s.buf.out))
	return true
}

// resendAfter returns the ticks to wait before sending p again what it has
// not said it has: a round trip and a half (its ack lags by about the
// round trip), at most upTo, at least resendTicks.
func (s *Server) resendAfter(p *peer, upTo uint32) uint32 {
	again := upTo
	if p.haveAck {
		again = min(again, (s.Tick()-p.ack)*3/2)
	}
	return max(again, resendTicks)
}

// lacking reports whether the client has not said it has every fragment.
func (x *serverXfer) lacking() bool {
	for i := range x.count {
		if x.got[i/8]&(1<<(i%8)) == 0 {
			return true
		}
	}
	return false
}
