package predict

import (
	"fmt"
	"github.com/cubelab/cube/internal/tick"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/wire"
)

// onInput takes the client's inputs and what it has taken from the server,
// and simulates every tick it can.
func (s *Server) onInput(now time.Duration, b []byte) error {
	if err := wire.DecodeInput(b, &s.in); err != nil {
		return s.Stats.Rejected.Reject(wire.RejectMalformed, "%v", err)
	}
	p := s.peer
	if p == nil {
		s.Stats.RefusedInputs += uint64(len(s.in.Inputs))
		return nil // no Hello taken yet
	}
	m := &s.in
	if int(m.Player) != p.player {
		s.Stats.RefusedInputs += uint64(len(m.Inputs))
		return s.Stats.Rejected.Reject(wire.RejectShape, "inputs for player %d from the client of player %d", m.Player, p.player)
	}
	p.acked(s, m)
	s.Stats.LastInputTicks = uint32(len(m.Inputs))
	limit := s.limit(now)
	for i, in := range m.Inputs {
		t := m.First + uint32(i)
		switch {
		case !tick.After(t, s.Tick()-1):
			s.Stats.OldInputs++
		case tick.After(t, limit):
			s.Stats.RefusedInputs++
		default:
			*s.pending.Put(t) = in
			if !s.haveSeen || tick.After(t, s.maxSeen) {
				s.maxSeen, s.haveSeen = t, true
			}
		}
	}
	return s.advance()
}

// advance simulates every tick up to the newest input received: with the
// client's input where it arrived, else as Missing says.
func (s *Server) advance() error {
	for s.haveSeen && !tick.After(s.Tick(), s.maxSeen) {
		t := s.Tick()
		if in, ok := s.pending.Get(t); ok {
			s.Stats.InputsApplied++
			if err := s.step(t, *in); err != nil {
				return err
			}
			continue
		}
		s.deviation, s.deviated = t, true
		if s.Missing == RepeatLast {
			s.Stats.RepeatedTicks++
			if err := s.step(t, s.lastInput); err != nil {
				return err
			}
			continue
		}
		// Skip to the first tick we have an input for.
		to := t + 1
		for ; !tick.After(to, s.maxSeen); to++ {
			if _, ok := s.pending.Get(to); ok {
				break
			}
		}
		for k := t; k != to; k++ {
			s.chain = wire.FoldInput(s.chain, k, wire.SkippedMark)
		}
		s.skipped += to - t
		s.Stats.SkippedTicks += uint64(to - t)
		if s.Recorder != nil {
			if err := s.Recorder.Skip(t, to); err != nil {
				return fmt.Errorf("predict: %w", err)
			}
		}
		// Every skipped tick gets a label and a hash, as the client's
		// replay of a skip gives them.
		for k := t; k != to; k++ {
			s.hist.skip(k)
			s.world.SkipTo(k + 1)
			s.hist.Put(s.world)
		}
		s.moved = true
	}
	return nil
}

// step simulates tick t with input in for player 0, after any pending
// server events.
func (s *Server) step(t uint32, in game.Input) error {
	rec := s.hist.rec(t)
	for _, e := range s.events {
		if err := s.scene.ApplyEvent(s.world, e); err != nil {
			return err
		}
		if s.Recorder != nil {
			if err := s.Recorder.Event(t, e); err != nil {
				return fmt.Errorf("predict: %w", err)
			}
		}
		rec.events = append(rec.events, e)
		s.nevents++
		s.Stats.Events++
		s.deviation, s.deviated = t, true
	}
	s.events = s.events[:0]
	clear(s.ins)
	s.ins[0] = in
	copy(rec.ins[:], s.ins)
	if err := s.scene.Step(s.world, s.ins); err != nil {
		return err
	}
	s.lastInput = in
	s.chain = wire.FoldInput(s.chain, t, uint8(in))
	s.hist.Put(s.world)
	s.moved = true
	if s.Recorder != nil {
		if err := s.Recorder.Tick(t, s.ins, s.hist.hash(t+1), s.world.State()); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
	}
	return nil
}
