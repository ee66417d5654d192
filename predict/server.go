package predict

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Missing says what the server does when the input for its next tick is
// missing and a later one has arrived.
type Missing int

const (
	// SkipMissing jumps to the first tick it has an input for without
	// simulating the gap: the original demo's policy.
	SkipMissing Missing = iota
	// RepeatLast simulates each missing tick with the last input applied.
	RepeatLast
)

func (m Missing) String() string { return [...]string{"skip", "repeat"}[m] }

// Recorder receives what the server simulates, tick by tick (see package
// record). Event comes before the Tick it belongs to.
type Recorder interface {
	Event(tick uint32, e game.Event) error
	Tick(tick uint32, ins []game.Input, hashAfter uint64, after *physics.State) error
	Skip(from, to uint32) error
}

// ServerStats counts what the server did.
type ServerStats struct {
	InputsApplied  uint64  // ticks simulated with the client's input
	OldInputs      uint64  // inputs for ticks already simulated (redundant copies, duplicates)
	RefusedInputs  uint64  // inputs for ticks the client cannot have reached yet
	Rejected       Rejects // messages that did not decode, dropped
	SkippedTicks   uint64  // ticks jumped over without simulating (SkipMissing)
	RepeatedTicks  uint64  // ticks simulated with a repeated input (RepeatLast)
	Events         uint64  // server-only events (nudges)
	Snapshots      uint64
	SnapshotBytes  uint64
	LastInputTicks uint32 // inputs in the newest message
}

// Server is the authority: it simulates the client's inputs in tick order.
type Server struct {
	Missing Missing
	// AheadMargin is how many ticks beyond the client's possible present the
	// server still accepts (clock drift, start-up).
	AheadMargin uint32
	Stats       ServerStats
	Recorder    Recorder

	world     *physics.World
	scene     *game.Scene
	join      time.Duration // when the client joined
	joinTick  uint32
	pending   ring[game.Input]
	maxSeen   uint32 // newest tick an input arrived for
	haveSeen  bool
	lastInput game.Input
	chain     uint64
	nevents   uint32
	skipped   uint32
	events    []game.Event // server-only events for the next simulated tick
	ins       []game.Input // the inputs of the tick being simulated, one per player
	lastSnap  uint32
	snapped   bool
	msg       InputMsg
	state     StateMsg
}

// NewServer returns a server for world w, built as scene sc, whose tick is
// the client's first, with the client joining at time now.
func NewServer(w *physics.World, sc *game.Scene, now time.Duration) *Server {
	return &Server{world: w, scene: sc, join: now, joinTick: w.Tick(), AheadMargin: 64, chain: chainStart}
}

// Scene returns the scene the server's world was built as.
func (s *Server) Scene() *game.Scene { return s.scene }

// World returns the authoritative world.
func (s *Server) World() *physics.World { return s.world }

// Tick returns the next tick the server will simulate.
func (s *Server) Tick() uint32 { return s.world.Tick() }

// Nudge schedules a server-only impulse on player 0's cube for the next
// simulated tick: the client cannot know about it.
func (s *Server) Nudge(impulse physics.Vec3) {
	s.events = append(s.events, game.Event{Kind: game.Nudge, Impulse: impulse})
}

// limit returns the newest tick the client can have reached by now, plus
// the margin.
func (s *Server) limit(now time.Duration) uint32 {
	elapsed := max(now-s.join, 0)
	ticks := uint32(elapsed / TickDuration(s.world.Config()))
	return s.joinTick + ticks + s.AheadMargin
}

// Receive handles an input message arriving at time now and simulates every
// tick it can. A message that does not decode is counted in Stats.Rejected
// and dropped, and the error returned wraps ErrRejected; any other error is
// the server's own fault.
func (s *Server) Receive(now time.Duration, b []byte) error {
	if err := DecodeInput(b, &s.msg); err != nil {
		return s.Stats.Rejected.reject(RejectMalformed, "%v", err)
	}
	s.Stats.LastInputTicks = uint32(len(s.msg.Inputs))
	limit := s.limit(now)
	for i, in := range s.msg.Inputs {
		t := s.msg.First + uint32(i)
		switch {
		case !After(t, s.Tick()-1):
			s.Stats.OldInputs++
		case After(t, limit):
			s.Stats.RefusedInputs++
		default:
			*s.pending.put(t) = in
			if !s.haveSeen || After(t, s.maxSeen) {
				s.maxSeen, s.haveSeen = t, true
			}
		}
	}
	return s.advance()
}

// advance simulates every tick up to the newest input received: with the
// client's input where it arrived, else as Missing says.
func (s *Server) advance() error {
	for s.haveSeen && !After(s.Tick(), s.maxSeen) {
		t := s.Tick()
		if in, ok := s.pending.get(t); ok {
			s.Stats.InputsApplied++
			if err := s.step(t, *in); err != nil {
				return err
			}
			continue
		}
		if s.Missing == RepeatLast {
			s.Stats.RepeatedTicks++
			if err := s.step(t, s.lastInput); err != nil {
				return err
			}
			continue
		}
		// Skip to the first tick we have an input for.
		to := t + 1
		for ; !After(to, s.maxSeen); to++ {
			if _, ok := s.pending.get(to); ok {
				break
			}
		}
		for k := t; k != to; k++ {
			s.chain = foldInput(s.chain, k, skippedMark)
		}
		s.skipped += to - t
		s.Stats.SkippedTicks += uint64(to - t)
		if s.Recorder != nil {
			if err := s.Recorder.Skip(t, to); err != nil {
				return fmt.Errorf("predict: %w", err)
			}
		}
		s.world.SkipTo(to)
	}
	return nil
}

// step simulates tick t with input in, after any pending server event.
func (s *Server) step(t uint32, in game.Input) error {
	for _, e := range s.events {
		if err := s.scene.ApplyEvent(s.world, e); err != nil {
			return err
		}
		if s.Recorder != nil {
			if err := s.Recorder.Event(t, e); err != nil {
				return fmt.Errorf("predict: %w", err)
			}
		}
		s.nevents++
		s.Stats.Events++
	}
	s.events = s.events[:0]
	s.ins = append(s.ins[:0], in)
	if err := s.scene.Step(s.world, s.ins); err != nil {
		return err
	}
	s.lastInput = in
	s.chain = foldInput(s.chain, t, uint8(in))
	if s.Recorder != nil {
		if err := s.Recorder.Tick(t, s.ins, s.world.Hash(), s.world.State()); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
	}
	return nil
}

// Snapshot appends a state message with the server's whole world to b. With
// onlyNew it appends nothing if the server has not advanced since the last
// snapshot.
func (s *Server) Snapshot(b []byte, onlyNew bool) []byte {
	t := s.Tick()
	if onlyNew && s.snapped && t == s.lastSnap {
		return b
	}
	s.lastSnap, s.snapped = t, true
	m := &s.state
	s.world.Save(&m.State)
	m.Tick, m.Hash, m.Chain, m.Events, m.Skipped = t, m.State.Hash(), s.chain, s.nevents, s.skipped
	n := len(b)
	b = AppendState(b, m)
	s.Stats.Snapshots++
	s.Stats.SnapshotBytes += uint64(len(b) - n)
	return b
}
