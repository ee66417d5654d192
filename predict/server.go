package predict

import (
	"github.com/cubelab/cube/internal/tick"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/wire"
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
	InputsApplied  uint64       // ticks simulated with the client's input
	OldInputs      uint64       // inputs for ticks already simulated (redundant copies, duplicates)
	RefusedInputs  uint64       // inputs for ticks the client cannot have reached yet, or for another player
	Rejected       wire.Rejects // messages that did not decode, dropped
	SkippedTicks   uint64       // ticks jumped over without simulating (SkipMissing)
	RepeatedTicks  uint64       // ticks simulated with a repeated input (RepeatLast)
	Events         uint64       // server-only events (nudges)
	Snapshots      uint64       // snapshots or relays sent
	SnapshotBytes  uint64
	BodiesSent     uint64 // bodies in the snapshots
	Incomplete     uint64 // snapshots that left out bodies that changed
	Fragments      uint64 // transfer fragments sent
	Transfers      uint64 // transfers started
	LastInputTicks uint32 // inputs in the newest message
}

// Server is the authority: it simulates the client's inputs in tick order
// and tells the client, in its sync mode, what happened.
type Server struct {
	Missing Missing
	// AheadMargin is how many ticks beyond the client's possible present the
	// server still accepts (clock drift, start-up).
	AheadMargin uint32
	// BytesPerSecond is the budget of state-sync snapshots, a token bucket
	// refilled at this rate (Fiedler's demo: 256 kbit/s); 0: every
	// snapshot may take MaxMessage bytes.
	BytesPerSecond float64
	Stats          ServerStats
	Recorder       Recorder

	world *physics.World
	scene *game.Scene
	mode  Mode
	join  time.Duration // when the client joined
	peer  *peer

	pending   tick.Ring[game.Input]
	maxSeen   uint32 // newest tick an input arrived for
	haveSeen  bool
	lastInput game.Input
	chain     uint64
	nevents   uint32
	skipped   uint32
	events    []game.Event // server-only events for the next simulated tick
	ins       []game.Input // the inputs of the tick being simulated, one per player
	hist      serverHistory
	deviation uint32 // newest tick the server did not simulate as the client predicted (event, skip, repeat)
	deviated  bool
	moved     bool // the world changed since it was built

	refused []wire.Welcome // answers to Hellos the server does not take

	in    wire.Input
	hello wire.Hello
	have  wire.Have
	out   []byte
}

// NewServer returns a server for world w, built as scene sc, serving one
// client in mode, who may join from time now on.
func NewServer(w *physics.World, sc *game.Scene, mode Mode, now time.Duration) *Server {
	s := &Server{world: w, scene: sc, mode: mode, join: now, AheadMargin: 64, chain: wire.ChainStart}
	s.ins = make([]game.Input, len(sc.Players))
	s.hist.Put(w)
	return s
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
	if s.peer == nil {
		return s.Tick()
	}
	elapsed := max(now-s.peer.joined, 0)
	ticks := uint32(elapsed / tick.Duration(s.world.Config()))
	return s.peer.start + ticks + s.AheadMargin
}

// Receive handles a message arriving at time now: a Hello (answered by the
// next Send), an Input (every tick it allows is simulated at once) or a
// Have. A message that does not decode or does not fit is counted in
// Stats.Rejected and dropped, and the error returned wraps wire.ErrRejected; any
// other error is the server's own fault.
func (s *Server) Receive(now time.Duration, b []byte) error {
	k, err := wire.Kind(b)
	if err != nil {
		return s.Stats.Rejected.Reject(wire.RejectMalformed, "%v", err)
	}
	switch k {
	case wire.KindHello:
		return s.onHello(now, b)
	case wire.KindInput:
		return s.onInput(now, b)
	case wire.KindHave:
		return s.onHave(b)
	}
	return s.Stats.Rejected.Reject(wire.RejectMalformed, "a message of kind %d, which a server does not take", k)
}

// onHello takes a client that built the same scene in the same mode.
func (s *Server) onHello(now time.Duration, b []byte) error {
	if err := wire.DecodeHello(b, &s.hello); err != nil {
		return s.Stats.Rejected.Reject(wire.RejectMalformed, "%v", err)
	}
	h := &s.hello
	if p := s.peer; p != nil {
		if p.nonce == h.Nonce {
			p.welcome = true // the Welcome was lost: say it again
		}
		return nil // one client only; a second Hello of another nonce is ignored
	}
	p := &peer{nonce: h.Nonce, welcome: true, joined: now, start: s.Tick(), result: wire.Accepted}
	switch {
	case h.Scene != s.scene.ID:
		p.result = wire.OtherScene
	case Mode(h.Mode) != s.mode:
		p.result = wire.OtherMode
	}
	if p.result != wire.Accepted {
		s.refused = append(s.refused, wire.Welcome{Nonce: h.Nonce, Result: p.result})
		return nil
	}
	p.init(s)
	s.peer = p
	return nil
}
