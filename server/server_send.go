package server

import (
	"time"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// Send sends what is due at time now through send, to each connection:
// the answers to Hellos, then, when snapshot is true, a snapshot (state
// sync) or a relay (input sync; in state sync with several players, a
// relay too, for the other players' inputs), and the next fragments of a
// transfer under way. send must not keep its argument.
func (s *Server) Send(now time.Duration, snapshot bool, send func(conn uint32, b []byte)) {
	for _, r := range s.refused {
		s.buf.out = wire.AppendWelcome(s.buf.out[:0], &r.w)
		send(r.conn, s.buf.out)
		s.Stats.Refusals++
	}
	s.refused = s.refused[:0]
	for _, p := range s.peers {
		if p != nil {
			s.sendTo(p, now, snapshot, send)
		}
	}
}

// sendTo sends what is due to one client.
func (s *Server) sendTo(p *peer, now time.Duration, snapshot bool, send func(conn uint32, b []byte)) {
	s.sendingAt(p, now)
	if p.joining {
		if tick.After(p.joinAt, s.Tick()) {
			return // its cube is not back yet: the Welcome waits for it
		}
		p.joining = false
		p.init(s)
	}
	if p.welcome {
		p.welcome = false
		w := wire.Welcome{Nonce: p.nonce, Echo: p.echo, Result: wire.Accepted, Player: uint8(p.player), Tick: p.start, Transfer: p.wantXfer}
		if p.wantXfer {
			if !p.xfer.active {
				// The client starts from the transfer: its first view.
				s.startTransfer(p)
				p.xfer.join = true
				p.st.views.Reset(p.xfer.tick, s.world.State())
			}
			w.Tick = p.xfer.tick // a Welcome said again names the same one
		}
		s.buf.out = wire.AppendWelcome(s.buf.out[:0], &w)
		send(p.conn, s.buf.out)
		s.count(p, len(s.buf.out))
	}
	// A client that asks (its prediction went wrong) gets a repair by
	// buckets; one further behind than the server's history, the whole
	// state. One that asks again after putting a transfer together, or
	// still asks long after one began (it could not use it: its history
	// moved on), gets a newer one.
	if (p.wantXfer || p.needXfer) && p.haveAck && (!p.xfer.active || p.xfer.complete || s.Tick()-p.xfer.tick > staleTransfer) {
		if x := &p.xfer; x.active && x.count > 0 {
			if x.complete {
				p.stats.Down.Superseded++
			} else {
				p.stats.Down.Abandoned++
			}
		}
		if p.needXfer || s.WholeRepairs {
			s.startTransfer(p)
		} else {
			s.openRepair(p)
		}
	}
	if p.xfer.active && p.xfer.rep.waiting {
		s.sendRepair(p, now, func(b []byte) { send(p.conn, b) })
	}
	// The relay first, then the fragments, then the snapshot: the
	// fragments and the snapshot share the budget left by what was sent
	// over the last second, the relay included (see server_budget.go).
	due := snapshot && (p.haveAck || !p.xfer.active)
	if due && s.relayDue(p) {
		if s.buf.out = s.appendRelay(p, s.buf.out[:0]); len(s.buf.out) > 0 && s.relayRoom(p, len(s.buf.out)) {
			s.sent(p, send)
		}
	}
	if p.xfer.active {
		s.sendFragments(p, now, func(b []byte) { send(p.conn, b) })
	}
	if !due {
		return
	}
	s.sync.sendState(s, p, now, send)
}

// relayDue reports whether p is sent a relay with its snapshot: always in
// input sync, and in state sync with several players (the others'
// inputs); in state sync with one player, while the server applied events
// (a nudge) since the newest message p acknowledged. A state-sync client
// learns from a snapshot only that events happened, not what they were,
// so that its replays (of a correction, or from a repair's older state)
// would go on without them and never give the server's bits again.
func (s *Server) relayDue(p *peer) bool {
	if s.sync.relaysAlways() || len(s.peers) > 1 {
		return true
	}
	from := p.start
	if p.haveAck {
		from = p.ack
	}
	for t := from; tick.After(s.Tick(), t); t++ {
		r, ok := s.hist.ticks.Get(t)
		if !ok {
			return false // older than the history: a transfer mends that
		}
		if len(r.events) > 0 {
			return true
		}
	}
	return false
}

// sent sends s.buf.out to p and counts it.
func (s *Server) sent(p *peer, send func(conn uint32, b []byte)) {
	send(p.conn, s.buf.out)
	s.count(p, len(s.buf.out))
	s.Stats.Snapshots++
	s.Stats.SnapshotBytes += uint64(len(s.buf.out))
}

// pristine reports whether the server's world is still the scene as built:
// a client that joins builds the same and needs no transfer.
func (s *Server) pristine() bool { return !s.sim.moved }

// heard returns the "heard" fields of a message labelled label for p:
// label plus how far ahead of the server p's newest Input message arrived,
// so that heard minus the label is p's input buffer, and the tick of that
// message's newest input. Before any input, label twice.
func (s *Server) heard(p *peer, label uint32) (heard, input uint32) {
	if !p.haveArrival {
		return label, label
	}
	return label + uint32(p.arrival), p.arrivalInput
}
