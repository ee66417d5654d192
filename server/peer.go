package server

import (
	"math/bits"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// PeerStats is what the server counted for one client.
type PeerStats struct {
	Applied      uint64  // ticks simulated with its input
	Repeated     uint64  // ticks simulated with its last input repeated, none having arrived
	Late         uint64  // inputs that arrived after their tick was simulated
	TooFar       uint64  // inputs for ticks it cannot have reached
	TooFast      uint64  // Input messages beyond the rate a tick allows, dropped
	OtherPlayer  uint64  // Input messages for another player's cube, dropped
	Rejected     uint64  // its messages that did not decode or fit
	UnknownViews uint64  // snapshot views it acknowledged that the server does not hold: never sent, or older than its ring of views (a client seconds behind); left out of its baselines
	DepthP95     float64 // the 95th percentile of its input buffer depth, ticks
	Repairing    bool    // it asks for a transfer, or one to it is under way
	Down         DownStats
}

// peer is what the server keeps about one client.
type peer struct {
	conn      uint32 // the transport's connection
	nonce     uint64
	echo      uint32 // the Hello's echo, sent back in the Welcome
	player    int
	welcome   bool          // a Welcome is due
	joined    time.Duration // when its Hello was taken
	lastHeard time.Duration // when it last made progress (see Server.Receive)
	start     uint32        // the tick it starts at: its Welcome's
	joinAt    uint32        // the tick its cube joins at, when it left with an earlier client
	joining   bool

	started      bool   // its first input was applied: from then on, a missing one is counted
	firstTick    uint32 // the tick of its first input applied
	arrival      int32  // ticks between the newest input of its newest message and the server's next tick, when it arrived
	arrivalInput uint32 // the tick of that newest input
	haveArrival  bool
	stats        PeerStats
	depth        tick.Histogram
	rate         bucket
	deviation    uint32 // newest tick its own input was repeated (clocked)
	deviated     bool

	haveAck  bool
	ack      uint32 // newest server message it took
	base     uint32 // newest kept view it holds
	held     uint64 // the views it holds before base that the server holds too (bit i: tick base-1-i)
	inSync   bool   // its state at ack is the server's
	wantXfer bool   // the client asks for a transfer (or, before its first input, joins a moved world)
	needXfer bool   // the server found the client further behind than its history

	st   peerState  // state sync: snapshots
	in   peerInputs // input sync: relays
	xfer serverXfer // a transfer being sent, in either mode
}

// peerState is a state-sync peer's part: the views the snapshots were
// encoded against, the priority accumulator, the byte budget, and the
// buffers reused from snapshot to snapshot.
type peerState struct {
	views    protocol.Views // the views of the snapshots sent
	acc      []float64      // priority accumulators, per body
	tokens   float64        // bytes the snapshot budget allows now
	lastSnap time.Duration
	lastTick uint32 // the tick of the last snapshot sent
	snapped  bool

	cand   []int32
	sel    []int32
	scr    []byte
	writer wire.SnapshotWriter
	roots  []int32
	inIsl  []bool
}

// peerInputs is an input-sync peer's part: the relay reused from message
// to message.
type peerInputs struct {
	relay wire.Relay
}

// init readies a new peer to receive snapshots of s.
func (p *peer) init(s *Server) {
	p.start = s.Tick()
	p.st.views.Reset(s.Tick(), s.world.State())
	p.st.acc = make([]float64, s.world.NumBodies())
	p.st.tokens = wire.MaxMessage
	p.wantXfer = !s.pristine() // the world moved since it was built: the client needs it whole
}

// InputBurstTicks is the burst of Input messages a client may send beyond
// its rate, in ticks' worth: a second. A client sends one a tick; network
// jitter bunches a few, even the outage preset's (100 ms) no more than
// about 13. A ring's worth (4,096 messages at the rate) let a flood of
// the largest messages be decoded in full for a second.
const InputBurstTicks = 64

// bucket limits a client's Input messages (or a connection's Hellos) to a
// rate on average, with a burst.
type bucket struct {
	tokens float64
	last   time.Duration
	primed bool
}

// take spends a token if there is one: rate a tick of tickDur, with a
// burst of InputBurstTicks ticks' worth.
func (b *bucket) take(now, tickDur time.Duration, rate float64) bool {
	return b.takeBurst(now, tickDur, rate, rate*InputBurstTicks)
}

// takeBurst spends a token if there is one: rate tokens every per, full
// at most.
func (b *bucket) takeBurst(now, per time.Duration, rate, full float64) bool {
	if rate <= 0 {
		return true
	}
	if !b.primed {
		b.tokens, b.last, b.primed = full, now, true
	}
	b.tokens = min(full, b.tokens+rate*float64(now-b.last)/float64(per))
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// acked takes what an Input message says the client has, and reports
// whether it acknowledges a server message newer than any before.
func (p *peer) acked(s *Server, m *wire.Input) bool {
	newer := false
	if m.Flags&wire.AckValid != 0 && (!p.haveAck || !tick.After(p.ack, m.Ack)) {
		newer = !p.haveAck || m.Ack != p.ack
		p.ack, p.haveAck = m.Ack, true
		p.base = m.Base
		s.sync.acked(p, m)
		p.inSync = m.Flags&wire.AckInSync != 0
	}
	p.wantXfer = m.Flags&wire.AskTransfer != 0
	// The client took it: it holds a state at or after its tick and no
	// longer asks. (Its snapshots' acknowledgements alone pass the tick
	// long before a large transfer is whole.)
	if x := &p.xfer; x.active && p.haveAck && !tick.After(x.tick, p.ack) && !p.wantXfer {
		x.finish(s.Tick(), &p.stats.Down)
	}
	return newer
}

// ackViews takes the views the client says it holds: base and those mask
// names (bit i: tick base-1-i). Later snapshots take the bodies of those
// the server holds too as known (protocol.Views.Baseline); a view the
// server does not hold is counted and left out: one it never sent (a
// client that lies or went wrong), or one already gone from its ring (a
// client seconds behind).
func (p *peer) ackViews(base uint32, mask uint64) {
	if p.st.views.Get(base) == nil {
		p.stats.UnknownViews++
		mask = 0
	}
	p.held = mask & p.st.views.Mask(base)
	p.stats.UnknownViews += uint64(bits.OnesCount64(mask &^ p.held))
}
