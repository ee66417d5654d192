// Package server is the authority of a cube session: it simulates every
// player's inputs, on its own clock or, for one player, as the inputs
// arrive (input-driven: no clock to keep in step), and tells each client, in its sync mode,
// what happened.
package server

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// Missing says what the input-driven server does when the input for its
// next tick is missing and a later one has arrived.
type Missing int

const (
	// SkipMissing jumps to the first tick it has an input for without
	// simulating the gap: an input-driven server simulates only ticks a
	// player played.
	SkipMissing Missing = iota
	// RepeatLast simulates each missing tick with the last input applied.
	RepeatLast
)

// String names the policy as the -missing flag does.
func (m Missing) String() string {
	switch m {
	case SkipMissing:
		return "skip"
	case RepeatLast:
		return "repeat"
	}
	return fmt.Sprintf("Missing(%d)", int(m))
}

// Recorder receives what the server simulates, tick by tick (see package
// record). Event comes before the Tick it belongs to.
type Recorder interface {
	Event(tick uint32, e game.Event) error
	Tick(tick uint32, ins []game.Input, hashAfter uint64, after *physics.State) error
	Skip(from, to uint32) error
}

// Config sets how a server runs. Start from DefaultConfig.
type Config struct {
	// Clocked: the server steps on its own clock at the tick rate and
	// applies each player's input for the tick from a buffer; a missing
	// input repeats that player's last one, a late one is dropped. Off,
	// input-driven, for one player: the server steps when the client's
	// input arrives (no clock for the client to keep ahead of), and Missing
	// says what it does with a gap.
	Clocked bool
	Missing Missing
	// AheadMargin is how many ticks beyond what the client can have
	// reached the server still takes (start-up, a client running ahead of
	// a slow link).
	AheadMargin uint32
	// BytesPerSecond is each client's budget for state-sync snapshots, a
	// token bucket refilled at this rate; 0: every snapshot may take a
	// whole datagram.
	BytesPerSecond float64
	// WholeRepairs sends a client that asks for the state the whole of it,
	// without first asking which buckets of its own state differ
	// (server_repair.go): for comparison.
	WholeRepairs bool
	// Timeout: a client that makes no progress for this long (no new
	// input, no newer ack, no new transfer fragment: see Receive) leaves
	// the world (0: never).
	Timeout time.Duration
	// MaxInputRate bounds the Input messages a client may send per tick on
	// average (more are refused from their header and counted); a burst of
	// InputBurstTicks ticks' worth is allowed.
	MaxInputRate float64
	// Empty (clocked only): a player cube is in the world only while a
	// client holds its slot. Every cube leaves at the first tick (Leave
	// events, which the record and every client see like any other), and
	// a client that joins brings its cube back with a Join event.
	Empty bool
}

// DefaultConfig returns a clocked server with Fiedler's 256 kbit/s budget
// (DefaultDownBudget) and a 5 s timeout.
func DefaultConfig() Config {
	return Config{Clocked: true, AheadMargin: 256, BytesPerSecond: DefaultDownBudget, Timeout: 5 * time.Second, MaxInputRate: 4}
}

// Stats counts what the server did, for all clients.
type Stats struct {
	InputsApplied uint64           // player-ticks simulated with the client's input
	OldInputs     uint64           // inputs for ticks already simulated that were redundant copies
	RefusedInputs uint64           // inputs for ticks a client cannot have reached yet, or from no player
	Rejected      protocol.Rejects // messages that did not decode or fit, dropped
	SkippedTicks  uint64           // ticks jumped over without simulating (SkipMissing)
	RepeatedTicks uint64           // player-ticks simulated with a repeated input
	LateInputs    uint64           // inputs that arrived after their tick was simulated (clocked)
	Events        uint64           // server-only events (nudges, joins, leaves)
	Snapshots     uint64           // snapshots and relays sent
	SnapshotBytes uint64
	BodiesSent    uint64 // bodies in the snapshots
	Incomplete    uint64 // snapshots that left out bodies that changed
	Fragments     uint64 // transfer fragments sent
	Transfers     uint64 // transfers started
	Joins, Leaves uint64
	TimedOut      uint64 // clients that left by making no progress for Timeout
	TooFast       uint64 // Input messages beyond a client's rate, refused before decoding
	Refusals      uint64 // Welcomes that refused a Hello (another scene or mode, full)
	// DroppedTicks are ticks of wall-clock time the clocked server did not
	// simulate because it was stalled (stopped, or starved of CPU) for
	// longer than tick.MaxAdvance ticks: its clock moved on instead.
	DroppedTicks   uint64
	LastInputTicks uint32 // inputs in the newest Input message
}

// Server is the authority.
type Server struct {
	Config
	Stats    Stats
	Recorder Recorder
	Hooks

	world   *physics.World
	scene   *game.Scene
	mode    protocol.Mode
	sync    syncMode // what the server does only in its mode
	peers   []*peer  // by player slot; nil: free
	players [game.MaxPlayers]player
	hist    serverHistory

	clock serverClock // when ticks are due
	sim   simState    // what the next tick applies, and what the ticks so far changed

	refused []refusal       // answers to Hellos the server does not take
	runs    wire.ServerRuns // what a refusal says the server runs
	left    []uint32        // connections whose clients left (timed out), for the caller to close
	buf     serverBuffers   // reused from message to message
}

// Hooks are what the caller can hang on a server: a say in who joins, and
// calls when a client joins and leaves.
type Hooks struct {
	// MayJoin, when set, is asked before a Hello from connection conn takes
	// a free slot; false refuses it as ServerFull (the host's cap of
	// slots per address).
	MayJoin func(conn uint32) bool
	// OnJoin, when set, is called when a client takes player slot p over
	// connection conn.
	OnJoin func(p int, conn uint32)
	// OnLeave, when set, is called when the client of slot p leaves it,
	// with what the server counted for it; timedOut says it went silent
	// for Timeout.
	OnLeave func(p int, conn uint32, st PeerStats, timedOut bool)
}

// serverClock is when the server's ticks are due.
type serverClock struct {
	started bool          // the clock runs (from the first client)
	next    time.Duration // when the next tick is due (clocked)
	tickDur time.Duration
}

// simState is what the server's next tick applies, and what the ticks so
// far changed of what clients predicted.
type simState struct {
	allChain  uint64 // every player's inputs (protocol.FoldAll)
	maxSeen   uint32 // input-driven: newest tick an input arrived for
	haveSeen  bool
	nevents   uint32
	skipped   uint32
	events    []game.Event // server-only events for the next simulated tick
	ins       []game.Input // the inputs of the tick being simulated, one per player
	deviation uint32       // newest tick a server event, skip or repeat changed what clients predicted
	deviated  bool
	moved     bool // the world changed since it was built
}

// serverBuffers are reused from message to message.
type serverBuffers struct {
	in    wire.Input
	hello wire.Hello
	have  wire.Have
	out   []byte
	z     wire.Compressor // the transfers' bytes as they travel
	near  []bool          // the other players' cubes and what touches the client's, for the snapshot being made
	conns []uint32        // SlotConns' answer
}

// player is the server's side of one player's cube.
type player struct {
	pending    tick.Ring[game.Input]
	last       game.Input // the input applied at the newest tick
	newest     uint32     // the newest tick an input arrived for
	haveNewest bool
	chain      uint64 // digest of the inputs applied for this cube
	// changed is the newest tick its input differed from the tick before:
	// a client that predicts this cube with its last known input may have
	// got the ticks since wrong.
	changed    uint32
	hasChanged bool
}

// refusal is a Welcome to send to a connection the server does not take.
type refusal struct {
	conn uint32
	w    wire.Welcome
}

// New returns a server for world w, built as scene sc, in mode.
func New(w *physics.World, sc *game.Scene, mode protocol.Mode, cfg Config) *Server {
	s := &Server{Config: cfg, world: w, scene: sc, mode: mode, sim: simState{allChain: protocol.ChainStart}}
	s.sync = stateSync{}
	if mode == protocol.ModeInputs {
		s.sync = inputSync{}
	}
	s.runs = wire.ServerRuns{Mode: uint8(mode), Scene: sc.ID.Name, Players: sc.ID.Players, Bodies: sc.ID.Bodies, Quantize: sc.ID.Quantize}
	s.clock.tickDur = tick.Duration(w.Config().Dt)
	s.peers = make([]*peer, len(sc.Players))
	s.sim.ins = make([]game.Input, len(sc.Players))
	for i := range s.players[:len(sc.Players)] {
		s.players[i].chain = protocol.ChainStart
	}
	s.hist.Put(w)
	if cfg.Empty && cfg.Clocked {
		for i := range sc.Players {
			s.sim.events = append(s.sim.events, game.Event{Kind: game.Leave, Player: uint8(i)})
		}
	}
	return s
}

// Scene returns the scene the server's world was built as.
func (s *Server) Scene() *game.Scene { return s.scene }

// World returns the authoritative world.
func (s *Server) World() *physics.World { return s.world }

// Mode returns the sync mode the server runs.
func (s *Server) Mode() protocol.Mode { return s.mode }

// Tick returns the next tick the server will simulate.
func (s *Server) Tick() uint32 { return s.world.Tick() }

// Nudge schedules a server-only impulse on player p's cube for the next
// simulated tick: no client can know about it.
func (s *Server) Nudge(p int, impulse physics.Vec3) {
	s.sim.events = append(s.sim.events, game.Event{Kind: game.Nudge, Player: uint8(p), Impulse: impulse})
}

// Limit returns the newest tick player slot p's client may send an input
// for by now.
func (s *Server) Limit(now time.Duration, p int) uint32 {
	pe := s.peers[p]
	if s.Clocked || pe == nil {
		return s.Tick() + s.AheadMargin
	}
	elapsed := max(now-pe.joined, 0)
	return pe.start + uint32(elapsed/s.clock.tickDur) + s.AheadMargin
}

// joinGrace is how long a client that has not played yet keeps its slot
// by saying Hello again (its Welcome lost): as long as cube client waits
// for the server's state before it gives up.
const joinGrace = 30 * time.Second

// Receive handles a datagram arriving at time now over connection conn: a
// Hello (answered by the next Send), an Input (the input-driven server
// simulates at once every tick it allows) or a Have. A message that does
// not decode or does not fit is counted in Stats.Rejected (and in its
// client's counters) and dropped, and the error returned wraps
// protocol.ErrRejected; any other error is the server's own fault.
//
// Only progress keeps a client in its slot: an input applied or buffered,
// an acknowledgement of a newer server message, a fragment of a transfer
// it did not have. Anything else (stale inputs, repeated acks, a flood
// beyond the rate) leaves its silence timer running, so that a connection
// cannot hold a slot for free.
func (s *Server) Receive(now time.Duration, conn uint32, b []byte) error {
	p := s.peerOf(conn)
	k, err := wire.Kind(b)
	if err != nil {
		return s.reject(p, protocol.RejectMalformed, "%v", err)
	}
	switch k {
	case wire.KindHello:
		return s.onHello(now, conn, b)
	case wire.KindInput:
		return s.onInput(now, p, b)
	case wire.KindHave:
		return s.onHave(now, p, b)
	case wire.KindRepairWant:
		return s.onRepairWant(now, p, b)
	}
	return s.reject(p, protocol.RejectMalformed, "a message of kind %d, which a server does not take", k)
}

// reject counts a rejected message, for the server and for p if known.
func (s *Server) reject(p *peer, why protocol.Reason, format string, args ...any) error {
	if p != nil {
		p.stats.Rejected++
	}
	return s.Stats.Rejected.Reject(why, format, args...)
}

// Joined reports whether connection conn belongs to a client that joined.
func (s *Server) Joined(conn uint32) bool { return s.peerOf(conn) != nil }

// peerOf returns the client on connection conn, if any.
func (s *Server) peerOf(conn uint32) *peer {
	for _, p := range s.peers {
		if p != nil && p.conn == conn {
			return p
		}
	}
	return nil
}

// onHello takes a client that built the same scene in the same mode, in
// the first free player slot.
func (s *Server) onHello(now time.Duration, conn uint32, b []byte) error {
	if err := wire.DecodeHello(b, &s.buf.hello); err != nil {
		return s.reject(s.peerOf(conn), protocol.RejectMalformed, "%v", err)
	}
	h := &s.buf.hello
	if p := s.peerOf(conn); p != nil {
		if p.nonce == h.Nonce {
			// The Welcome was lost: say it again, echoing this Hello so
			// that the client measures the round trip from it. A client
			// that has not played yet and says Hello again is alive: on
			// the outage preset the Welcome can be lost for seconds. For
			// joinGrace at most, so that Hellos alone never hold a slot.
			p.welcome, p.echo = true, h.Echo
			if !p.started && now-p.joined < joinGrace {
				p.lastHeard = now
			}
		}
		return nil
	}
	result := wire.Accepted
	slot := -1
	for i, p := range s.peers {
		if p == nil {
			slot = i
			break
		}
	}
	switch {
	case h.Scene != s.scene.ID:
		result = wire.OtherScene
	case protocol.Mode(h.Mode) != s.mode:
		result = wire.OtherMode
	case slot < 0 || (!s.Clocked && slot > 0):
		result = wire.ServerFull
	case s.MayJoin != nil && !s.MayJoin(conn):
		result = wire.ServerFull // its address holds as many slots as it may
	}
	if result != wire.Accepted {
		// One refusal a connection a turn, however many Hellos it sent.
		for _, r := range s.refused {
			if r.conn == conn {
				return nil
			}
		}
		w := wire.Welcome{Nonce: h.Nonce, Result: result, Runs: &s.runs}
		if wire.WelcomeLen(&w) > len(b) {
			w.Runs = nil // never answer a Hello with more bytes than it had
		}
		s.refused = append(s.refused, refusal{conn: conn, w: w})
		return nil
	}
	p := &peer{conn: conn, nonce: h.Nonce, echo: h.Echo, player: slot, welcome: true, joined: now, lastHeard: now}
	if !s.clock.started {
		s.clock.started, s.clock.next = true, now
	}
	// Until the client's first input its cube holds no key, and nothing a
	// client before it in this slot sent is kept.
	pl := &s.players[slot]
	pl.last, pl.newest, pl.haveNewest = 0, 0, false
	pl.pending.Reset()
	if s.Clocked && !s.enabledNext(slot) {
		// The cube left with an earlier client: it comes back at its spawn
		// at the next tick, and the Welcome waits for it.
		s.sim.events = append(s.sim.events, game.Event{Kind: game.Join, Player: uint8(slot)})
		p.joinAt, p.joining = s.Tick()+1, true
		s.Stats.Joins++
	}
	p.init(s)
	s.peers[slot] = p
	if s.OnJoin != nil {
		s.OnJoin(slot, conn)
	}
	return nil
}

// enabledNext reports whether player slot p's cube will be in the world at
// the next tick: the world says whether it is now, and the events pending
// for that tick may take it out (its client just left, or Empty at the
// start) or bring it back.
func (s *Server) enabledNext(p int) bool {
	on := s.world.Enabled(s.scene.Players[p])
	for _, e := range s.sim.events {
		if int(e.Player) != p {
			continue
		}
		switch e.Kind {
		case game.Join:
			on = true
		case game.Leave:
			on = false
		}
	}
	return on
}

// Leave takes the client on connection conn out: its cube leaves the world
// at the next tick (an event every client and the record see) and its slot
// is free again. The caller calls it when the transport reports the
// connection gone.
func (s *Server) Leave(conn uint32) { s.leave(conn, false) }

// leave takes the client on connection conn out; timedOut says it went
// silent.
func (s *Server) leave(conn uint32, timedOut bool) {
	p := s.peerOf(conn)
	if p == nil {
		return
	}
	if s.OnLeave != nil {
		st, _ := s.PlayerStats(p.player)
		s.OnLeave(p.player, conn, st, timedOut)
	}
	if s.Clocked {
		// The input-driven server has one cube, which stays for the next
		// client.
		s.sim.events = append(s.sim.events, game.Event{Kind: game.Leave, Player: uint8(p.player)})
	}
	s.peers[p.player] = nil
	s.Stats.Leaves++
}

// TakeLeft appends to dst the connections of the clients that left since
// the last call (timed out), so that the caller closes them.
func (s *Server) TakeLeft(dst []uint32) []uint32 {
	dst = append(dst, s.left...)
	s.left = s.left[:0]
	return dst
}

// timeouts makes every client silent for Timeout leave.
func (s *Server) timeouts(now time.Duration) {
	if s.Timeout <= 0 {
		return
	}
	for _, p := range s.peers {
		if p != nil && now-p.lastHeard > s.Timeout {
			s.left = append(s.left, p.conn)
			s.Stats.TimedOut++
			s.leave(p.conn, true)
		}
	}
}

// SlotConns returns the connections of the clients in the player slots.
// The slice is the server's own, valid until the next call.
func (s *Server) SlotConns() []uint32 {
	s.buf.conns = s.buf.conns[:0]
	for _, p := range s.peers {
		if p != nil {
			s.buf.conns = append(s.buf.conns, p.conn)
		}
	}
	return s.buf.conns
}

// Peers returns the number of clients the server serves.
func (s *Server) Peers() int {
	n := 0
	for _, p := range s.peers {
		if p != nil {
			n++
		}
	}
	return n
}

// PlayerStats returns what the server counted for player slot p's current
// client, and false if the slot is free.
func (s *Server) PlayerStats(p int) (PeerStats, bool) {
	if pe := s.peers[p]; pe != nil {
		st := pe.stats
		st.DepthP95 = pe.depth.P95()
		st.Repairing = pe.needXfer || pe.xfer.active
		return st, true
	}
	return PeerStats{}, false
}
