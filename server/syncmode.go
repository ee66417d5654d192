package server

import (
	"time"

	"github.com/cubelab/cube/netcode/wire"
)

// syncMode is what the server does only in one sync mode: stateSync keeps
// each client's views and sends snapshots; inputSync relays every tick's
// inputs and sends no state. The rest of the server (slots, inputs,
// stepping, history, transfers and repairs) is the same in both.
type syncMode interface {
	// acked takes the views an Input message says its client holds.
	acked(p *peer, m *wire.Input)
	// sendState sends p the state of this tick, when it is owed one and
	// its budget has room.
	sendState(s *Server, p *peer, now time.Duration, send func(conn uint32, b []byte))
	// relaysAlways reports whether every client gets a relay with every
	// message: in input sync the relays are the game.
	relaysAlways() bool
}

// stateSync is state sync's part: views and snapshots.
type stateSync struct{}

// inputSync is input sync's part: relays only.
type inputSync struct{}

func (stateSync) acked(p *peer, m *wire.Input) { p.ackViews(m.Base, m.Held) }

func (inputSync) acked(*peer, *wire.Input) {}

// sendState sends one snapshot a tick, within p's budget.
func (stateSync) sendState(s *Server, p *peer, now time.Duration, send func(conn uint32, b []byte)) {
	if (!p.st.snapped || s.Tick() != p.st.lastTick) && s.snapshotRoom(p, now) {
		p.st.lastTick = s.Tick()
		s.buf.out = s.appendSnapshot(p, now, s.buf.out[:0])
		p.st.snapped = true // without a budget too: one snapshot a tick
		s.sent(p, send)
	}
}

func (inputSync) sendState(*Server, *peer, time.Duration, func(uint32, []byte)) {}

func (stateSync) relaysAlways() bool { return false }

func (inputSync) relaysAlways() bool { return true }
