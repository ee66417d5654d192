package predict

import (
	"github.com/cubelab/cube/internal/tick"
	"time"

	"github.com/cubelab/cube/wire"
)

// peer is what the server keeps about one client.
type peer struct {
	nonce   uint64
	player  int
	result  uint8
	welcome bool          // a Welcome is due
	joined  time.Duration // when its Hello was taken
	start   uint32        // the tick it joined at

	haveAck  bool
	ack      uint32 // newest server message it took
	base     uint32 // newest kept view it holds
	inSync   bool   // its state at ack is the server's
	wantXfer bool

	views    wire.Views // the views of the snapshots sent
	acc      []float64  // priority accumulators, per body
	tokens   float64    // bytes the snapshot budget allows now
	lastSnap time.Duration
	lastTick uint32 // the tick of the last snapshot sent
	snapped  bool

	xfer serverXfer

	// Buffers reused from snapshot to snapshot.
	cand   []int32
	sel    []int32
	scr    []byte
	writer wire.SnapshotWriter
	relay  wire.Relay
	roots  []int32
	inIsl  []bool
}

// init readies a new peer to receive snapshots of s.
func (p *peer) init(s *Server) {
	p.views.Reset(s.Tick(), s.world.State())
	p.acc = make([]float64, s.world.NumBodies())
	p.tokens = wire.MaxMessage
	if s.pristine() {
		return
	}
	p.wantXfer = true // the world moved since it was built: the client needs it whole
}

// acked takes what an Input message says the client has.
func (p *peer) acked(s *Server, m *wire.Input) {
	if m.Flags&wire.AckValid != 0 && (!p.haveAck || !tick.After(p.ack, m.Ack)) {
		p.ack, p.haveAck = m.Ack, true
		p.base = m.Base
		p.inSync = m.Flags&wire.AckInSync != 0
	}
	p.wantXfer = m.Flags&wire.AskTransfer != 0
	if x := &p.xfer; x.active && p.haveAck && !tick.After(x.tick, p.ack) {
		x.active = false // the client took it
	}
}

// serverXfer is a transfer being sent.
type serverXfer struct {
	active bool
	tick   uint32
	data   []byte
	count  int
	got    []byte // bitmap of the fragments the client has
	next   int    // the next fragment to consider sending
}

// fragmentsPerTick bounds the fragments a transfer sends each tick: about
// 150 kB/s at 64 Hz.
const fragmentsPerTick = 2

// startTransfer starts sending the server's whole state to p.
func (s *Server) startTransfer(p *peer) {
	x := &p.xfer
	x.active, x.tick, x.next = true, s.Tick(), 0
	x.data = wire.AppendTransfer(x.data[:0], &wire.TransferState{Chain: s.chain, Events: s.nevents, Skipped: s.skipped, State: *s.world.State()})
	x.count = wire.FragmentCount(len(x.data))
	x.got = append(x.got[:0], make([]byte, (x.count+7)/8)...)
	// The transferred state is the client's first view from now on.
	p.views.Reset(x.tick, s.world.State())
	s.Stats.Transfers++
}

// onHave takes the fragments a client says it has.
func (s *Server) onHave(b []byte) error {
	if err := wire.DecodeHave(b, &s.have); err != nil {
		return s.Stats.Rejected.Reject(wire.RejectMalformed, "%v", err)
	}
	p := s.peer
	if p == nil || !p.xfer.active || s.have.Tick != p.xfer.tick {
		return nil // about a transfer no longer under way
	}
	x := &p.xfer
	if int(s.have.Count) != x.count {
		return s.Stats.Rejected.Reject(wire.RejectShape, "have of %d fragments, the transfer has %d", s.have.Count, x.count)
	}
	for i, g := range s.have.Got {
		x.got[i] |= g
	}
	return nil
}

// sendFragments sends the next fragments the client lacks.
func (s *Server) sendFragments(p *peer, send func([]byte)) {
	x := &p.xfer
	for sent, tried := 0, 0; sent < fragmentsPerTick && tried < x.count; tried++ {
		i := x.next
		x.next = (x.next + 1) % x.count
		if x.got[i/8]&(1<<(i%8)) != 0 {
			continue
		}
		s.out = wire.AppendFragment(s.out[:0], x.tick, x.data, i)
		send(s.out)
		s.Stats.Fragments++
		sent++
	}
}
