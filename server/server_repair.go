package server

import (
	"math"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// A repair (a client that asks for the state, having predicted wrong and
// not mended by snapshots) is sent as a patch against the client's own
// state at the repair's tick S: the server sends a hash of each bucket of
// its state at S (RepairHashes), the client answers with the buckets whose
// hashes differ from its own state's at S (RepairWant), and the server
// sends those buckets only, as a transfer of fragments (a patch). A client
// that cannot rebuild its state at S answers "all", and gets the whole
// state at S; one whose patched state does not hash as the server's asks
// "all" again. A joining client (no state of its own) and one further
// behind than the server's history get the whole state at once.

// serverRepair is a repair's part of a transfer: the state at its tick,
// kept until the transfer ends, and the handshake.
type serverRepair struct {
	waiting bool               // the hashes were sent; no answer yet
	patch   bool               // the transfer under way is a patch
	head    wire.TransferState // the transfer's header at the tick (its State unused)
	state   physics.State      // the server's state at the tick
	size    int                // bodies a bucket
	hashes  []uint64
	whole   uint64 // the state's hash
	sentAt  uint32 // the server tick the hashes were last sent at
	firstAt uint32 // the server tick they were first sent at
	sends   int    // times the hashes were sent
}

// maxHashSends bounds how long the server waits for the answer to a
// repair's hashes before it gives up on the handshake and sends the whole
// state: maxHashSends round trips and a half (resendAfter).
const maxHashSends = 8

// hashEvery is the most ticks between two sends of a repair's hashes
// while their answer has not come: one datagram every half second, about
// 2 kB/s of the budget, so that on a link that loses half its packets the
// handshake costs a round trip and a little more, not a round trip and a
// half for every copy lost.
const hashEvery = 2 * resendTicks

// openRepair starts a repair of p at the server's tick: it keeps the
// state and the hashes, and sendRepair sends them.
func (s *Server) openRepair(p *peer) {
	x := &p.xfer
	r := &x.rep
	x.active, x.tick, x.complete, x.join = true, s.Tick(), false, false
	x.data, x.count, x.next = x.data[:0], 0, 0
	x.got, x.sentAt, x.sent = x.got[:0], x.sentAt[:0], x.sent[:0]
	s.world.Save(&r.state)
	r.head = wire.TransferState{Chain: s.players[p.player].chain, AllChain: s.sim.allChain, Events: s.sim.nevents, Skipped: s.sim.skipped}
	r.size = wire.BucketBodies(len(r.state.Bodies))
	r.hashes = wire.BucketHashes(r.hashes[:0], &r.state, r.size)
	r.whole = r.state.Hash()
	r.waiting, r.patch, r.sends = true, false, 0
	s.Stats.Transfers++
	p.stats.Down.Transfers++
}

// sendRepair sends the hashes of the repair waiting for its answer: at
// once, then every hashEvery ticks at most until the answer comes (the
// hashes or the answer lost), paid from the budget like a fragment; after
// maxHashSends round trips and a half, the whole state instead.
func (s *Server) sendRepair(p *peer, now time.Duration, send func([]byte)) {
	x := &p.xfer
	r := &x.rep
	t := s.Tick()
	if r.sends > 0 && t-r.sentAt < s.resendAfter(p, hashEvery) {
		return
	}
	if r.sends > 0 && uint64(t-r.firstAt) >= maxHashSends*uint64(s.resendAfter(p, math.MaxUint32)) {
		p.stats.Down.Unanswered++
		s.wholeAt(p)
		return
	}
	s.buf.out = wire.AppendRepairHashes(s.buf.out[:0], &wire.RepairHashes{Tick: x.tick, Size: uint16(r.size),
		Bodies: uint32(len(r.state.Bodies)), Whole: r.whole, Hashes: r.hashes})
	if s.BytesPerSecond > 0 {
		s.refill(p, now)
		if !s.affords(p, len(s.buf.out)) {
			return
		}
	}
	if r.sends == 0 {
		r.firstAt = t
	}
	r.sends++
	r.sentAt = t
	send(s.buf.out)
	s.count(p, len(s.buf.out))
}

// wholeAt makes the repair under way a transfer of the whole state at its
// tick.
func (s *Server) wholeAt(p *peer) {
	x := &p.xfer
	r := &x.rep
	r.waiting, r.patch = false, false
	h := r.head
	h.State = r.state
	x.data = wire.AppendTransfer(x.data[:0], &h)
	x.cut(&s.buf.z)
}

// onRepairWant takes a client's answer to the hashes of its repair.
func (s *Server) onRepairWant(now time.Duration, p *peer, b []byte) error {
	var m wire.RepairWant
	if err := wire.DecodeRepairWant(b, &m); err != nil {
		return s.reject(p, protocol.RejectMalformed, "%v", err)
	}
	if p == nil {
		return nil
	}
	x := &p.xfer
	r := &x.rep
	if !x.active || m.Tick != x.tick || !r.waiting && !(r.patch && m.All) {
		return nil // about a repair no longer under way, or said again
	}
	if !m.All && int(m.Count) != len(r.hashes) {
		return s.reject(p, protocol.RejectShape, "repair answer of %d buckets, the repair has %d", m.Count, len(r.hashes))
	}
	p.lastHeard = now // an answer: progress
	if m.All {
		if r.patch {
			p.stats.Down.PatchMismatches++
		} else {
			p.stats.Down.AllAnswers++
		}
		s.wholeAt(p)
		return nil
	}
	r.waiting, r.patch = false, true
	x.data = wire.AppendPatch(x.data[:0], &r.head, &r.state, r.size, m.Mask)
	x.cut(&s.buf.z)
	p.stats.Down.Patches++
	for k := range len(r.hashes) {
		if m.Mask[k/8]&(1<<(k%8)) != 0 {
			p.stats.Down.PatchBuckets++
		}
	}
	return nil
}
