package session

import (
	"errors"
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// Endpoint runs a Client over a transport: the loop of one client tick that
// an in-process session and `cube client` share, so that one code path is
// tested in both.
type Endpoint struct {
	Client *predict.Client
	Net    transport.Client
	// Traffic counts what this endpoint sent and received since the
	// caller last cleared it (the session's meter does, every tick).
	Traffic Traffic
	MaxUp   int // the largest datagram sent, bytes
	MaxDown int // the largest datagram received, bytes
	// Buffer counts the client's input buffer at the server, one sample
	// for each server state taken with time sync on.
	Buffer BufferStats

	inbox   [][]byte
	send    func([]byte)
	now     time.Duration
	sendErr error // a datagram the transport could never send: the client's own fault
}

// NewEndpoint returns an endpoint for c over net.
func NewEndpoint(c *predict.Client, net transport.Client) *Endpoint {
	e := &Endpoint{Client: c, Net: net}
	e.send = e.sendNow
	return e
}

// Now returns the time of the endpoint's latest turn.
func (e *Endpoint) Now() time.Duration { return e.now }

// Turn is one tick of the client at time now: what arrived, then a step
// with input in, and what to send. A connection that is gone is an error
// that says why.
func (e *Endpoint) Turn(now time.Duration, in game.Input) error {
	e.now = now
	e.inbox = e.Net.Receive(now, e.inbox[:0])
	e.Client.BeginTurn() // every message first, then one replay (Step ends the turn)
	for _, b := range e.inbox {
		e.Traffic.DownBytes += len(b)
		e.Traffic.DownPackets++
		e.MaxDown = max(e.MaxDown, len(b))
		samples := e.Client.Sync.Samples
		if err := e.Client.Receive(b); err != nil && !errors.Is(err, protocol.ErrRejected) && !errors.Is(err, predict.ErrNonFinite) {
			e.endTurn()
			return fmt.Errorf("client: %w", err)
		}
		if e.Client.Sync.Samples != samples {
			e.Buffer.add(e.Client.Sync.Last)
		}
	}
	if err := e.Net.Err(); err != nil {
		e.endTurn()
		return err
	}
	// A non-finite step is counted in the client's NonFinite and mended
	// by a transfer: the session goes on.
	if err := e.Client.Step(in, e.send); err != nil && !errors.Is(err, predict.ErrNonFinite) {
		return err
	}
	return e.sendErr
}

// sendNow sends one datagram now.
func (e *Endpoint) sendNow(b []byte) {
	// A datagram the conditioner or the path drops is counted there; one
	// too large for any path is a bug of the client's and ends the turn.
	if err := e.Net.Send(e.now, b); errors.Is(err, transport.ErrTooLarge) && e.sendErr == nil {
		e.sendErr = fmt.Errorf("client: %w", err)
	}
	e.Traffic.UpBytes += len(b)
	e.Traffic.UpPackets++
	e.MaxUp = max(e.MaxUp, len(b))
}

// endTurn ends a turn that will not step: the world is replayed to the
// present, for whoever reads it after the error. The replay's own error
// is the one Step would have returned; the turn's error goes first.
func (e *Endpoint) endTurn() { _ = e.Client.EndTurn() }
