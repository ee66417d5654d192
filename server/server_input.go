package server

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
)

// onInput takes a client's inputs and what it has taken from the server.
// The input-driven server then simulates every tick it can.
//
// What can be refused from the header (its size, its player, the
// client's rate) is refused before the message is decoded, so that a
// flood costs the server little more than its count.
func (s *Server) onInput(now time.Duration, p *peer, b []byte) error {
	player, count, err := wire.InputHead(b)
	if err != nil {
		return s.reject(p, protocol.RejectMalformed, "%v", err)
	}
	if p == nil {
		s.Stats.RefusedInputs += uint64(count)
		s.Stats.Rejected[protocol.RejectShape]++
		return errNotJoined
	}
	if int(player) != p.player {
		s.Stats.RefusedInputs += uint64(count)
		p.stats.OtherPlayer++
		return s.reject(p, protocol.RejectShape, "inputs for player %d from the client of player %d", player, p.player)
	}
	if !p.rate.take(now, s.clock.tickDur, s.MaxInputRate) {
		p.stats.TooFast++
		p.stats.Rejected++
		s.Stats.TooFast++
		s.Stats.Rejected[protocol.RejectRate]++
		return errTooFast
	}
	if err := wire.DecodeInput(b, &s.buf.in); err != nil {
		return s.reject(p, protocol.RejectMalformed, "%v", err)
	}
	m := &s.buf.in
	progress := p.acked(s, m)
	s.Stats.LastInputTicks = uint32(len(m.Inputs))
	// How far ahead of the server this message's newest input came: what
	// the client's time sync steers by. Measured on arrival, so that a
	// lost message does not look like a late one.
	p.arrivalInput = m.First + uint32(len(m.Inputs)) - 1
	p.arrival = int32(p.arrivalInput - s.Tick())
	p.haveArrival = true
	pl := &s.players[p.player]
	limit := s.Limit(now, p.player)
	for i, in := range m.Inputs {
		t := m.First + uint32(i)
		switch {
		case !tick.After(t, s.Tick()-1):
			_, had := pl.pending.Get(t)
			switch {
			case had:
				s.Stats.OldInputs++ // a redundant copy
			case s.Clocked && p.started && !tick.After(p.firstTick, t):
				p.stats.Late++ // its tick was simulated without it
				s.Stats.LateInputs++
			default:
				s.Stats.OldInputs++ // a start-up tick, simulated before the client's inputs could arrive
			}
			if !had && !pl.pending.Newer(t) {
				*pl.pending.Put(t) = in // so that a copy is not counted again
			}
		case tick.After(t, limit):
			s.Stats.RefusedInputs++
			p.stats.TooFar++
		default:
			if _, had := pl.pending.Get(t); !had {
				progress = true // an input the server did not have
			}
			*pl.pending.Put(t) = in
			if !pl.haveNewest || tick.After(t, pl.newest) {
				pl.newest, pl.haveNewest = t, true
			}
			if !s.sim.haveSeen || tick.After(t, s.sim.maxSeen) {
				s.sim.maxSeen, s.sim.haveSeen = t, true
			}
		}
	}
	if progress {
		p.lastHeard = now
	}
	if s.Clocked {
		return nil
	}
	return s.advanceInputs()
}

// The errors of the refusals a flood repeats: made once, so that refusing
// costs no allocation.
var (
	errTooFast   = fmt.Errorf("%w (%s): inputs faster than the client's rate", protocol.ErrRejected, protocol.RejectRate)
	errNotJoined = fmt.Errorf("%w (%s): inputs from a connection that has not joined", protocol.ErrRejected, protocol.RejectShape)
)

// Advance runs the clocked server's clock to now: every tick due is
// simulated, each player with its input for the tick, or its last one
// repeated when it has none. Clients silent for Timeout leave. It does
// nothing before the first client joins, nor for an input-driven server.
func (s *Server) Advance(now time.Duration) error {
	if !s.Clocked || !s.clock.started {
		return nil
	}
	s.timeouts(now)
	for n := 0; now >= s.clock.next; n++ {
		if n == tick.MaxAdvance {
			// A stall: simulating every tick missed would stall everyone
			// again; the clock moves on and the clients' time sync follows.
			behind := uint64((now-s.clock.next)/s.clock.tickDur) + 1
			s.Stats.DroppedTicks += behind
			s.clock.next += time.Duration(behind) * s.clock.tickDur
			break
		}
		if err := s.stepClocked(); err != nil {
			return err
		}
		s.clock.next += s.clock.tickDur
	}
	return nil
}

// stepClocked simulates the next tick with every player's input.
func (s *Server) stepClocked() error {
	t := s.Tick()
	for i := range s.sim.ins {
		p, pl := s.peers[i], &s.players[i]
		in := pl.last
		switch {
		case p == nil || tick.After(p.start, t):
			in = 0 // no client: the cube stays idle
		default:
			if v, ok := pl.pending.Get(t); ok {
				in = *v
				s.Stats.InputsApplied++
				p.stats.Applied++
				if !p.started {
					p.started, p.firstTick = true, t // ticks before its first input count for nothing
				}
			} else if p.started {
				s.Stats.RepeatedTicks++
				p.stats.Repeated++
				p.deviation, p.deviated = t, true
			}
			if p.started {
				depth := int32(-1)
				if pl.haveNewest {
					depth = int32(pl.newest - t)
				}
				p.depth.Add(depth)
			}
		}
		s.sim.ins[i] = in
	}
	return s.step(t)
}

// advanceInputs simulates, for the input-driven server, every tick up to
// the newest input received: with the client's input where it arrived,
// else as Missing says.
func (s *Server) advanceInputs() error {
	pl := &s.players[0]
	for s.sim.haveSeen && !tick.After(s.Tick(), s.sim.maxSeen) {
		t := s.Tick()
		if in, ok := pl.pending.Get(t); ok {
			s.Stats.InputsApplied++
			s.sim.ins[0] = *in
			if err := s.step(t); err != nil {
				return err
			}
			continue
		}
		s.sim.deviation, s.sim.deviated = t, true
		if s.Missing == RepeatLast {
			s.Stats.RepeatedTicks++
			s.sim.ins[0] = pl.last
			if err := s.step(t); err != nil {
				return err
			}
			continue
		}
		// Skip to the first tick we have an input for.
		to := t + 1
		for ; !tick.After(to, s.sim.maxSeen); to++ {
			if _, ok := pl.pending.Get(to); ok {
				break
			}
		}
		for k := t; k != to; k++ {
			pl.chain = protocol.FoldInput(pl.chain, k, protocol.SkippedMark)
			s.sim.allChain = protocol.FoldAll[game.Input](s.sim.allChain, k, nil, true)
		}
		s.sim.skipped += to - t
		s.Stats.SkippedTicks += uint64(to - t)
		if s.Recorder != nil {
			if err := s.Recorder.Skip(t, to); err != nil {
				return fmt.Errorf("server: %w", err)
			}
		}
		// Every skipped tick gets a label and a hash, as the client's
		// replay of a skip gives them.
		for k := t; k != to; k++ {
			s.hist.skip(k)
			s.world.SkipTo(k + 1)
			s.hist.Put(s.world)
		}
		s.sim.moved = true
	}
	return nil
}

// step simulates tick t with s.sim.ins, after the pending server events.
func (s *Server) step(t uint32) error {
	rec := s.hist.rec(t)
	for _, e := range s.sim.events {
		if err := s.scene.ApplyEvent(s.world, e); err != nil {
			return err
		}
		if s.Recorder != nil {
			if err := s.Recorder.Event(t, e); err != nil {
				return fmt.Errorf("server: %w", err)
			}
		}
		rec.events = append(rec.events, e)
		s.sim.nevents++
		s.Stats.Events++
		s.sim.deviation, s.sim.deviated = t, true
	}
	s.sim.events = s.sim.events[:0]
	copy(rec.ins[:], s.sim.ins)
	if err := s.scene.Step(s.world, s.sim.ins); err != nil {
		return err
	}
	for i, in := range s.sim.ins {
		pl := &s.players[i]
		if in != pl.last {
			pl.changed, pl.hasChanged = t, true
		}
		pl.last = in
		pl.chain = protocol.FoldInput(pl.chain, t, uint8(in))
	}
	s.sim.allChain = protocol.FoldAll(s.sim.allChain, t, s.sim.ins, false)
	s.hist.Put(s.world)
	s.sim.moved = true
	if s.Recorder != nil {
		if err := s.Recorder.Tick(t, s.sim.ins, s.hist.hash(t+1), s.world.State()); err != nil {
			return fmt.Errorf("server: %w", err)
		}
	}
	return nil
}
