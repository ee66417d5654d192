package predict

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// Mode is how the server keeps a client in step (see protocol.Mode).
type Mode = protocol.Mode

// Modes.
const (
	StateSync = protocol.ModeState
	InputSync = protocol.ModeInputs
)

// ClientConfig sets how the client predicts and corrects.
type ClientConfig struct {
	Mode Mode
	// TimeSync: the server runs on its own clock; the client runs ahead of
	// it by the round trip and a small buffer (see TimeSync). Off, the
	// server steps when the client's inputs arrive (input-driven).
	TimeSync    bool
	Thresholds  Thresholds
	Redundancy  bool // send every input the server may lack, not just the current one
	Corrections bool // rewind and replay on a misprediction; off, the client drifts from the server
	// QuietResync rewinds and replays also when the bits differ but no
	// threshold is exceeded, without a visible correction, so that the
	// client stays bit-identical with the server.
	QuietResync bool
	// FullReplay re-simulates the whole world on every rewind, from the
	// keyframe before it, as the client did before partial replays: for
	// comparison and for debugging. Off (the default), a rewind rebuilds
	// the state it needs from the recorded traces and re-simulates only
	// the bodies the correction can reach (physics.World.Follow), with the
	// same bits.
	FullReplay bool
	// SyncTest, from 1 to MaxSyncTest, makes the client rewind that many
	// ticks after every tick it predicts and re-simulate them, in full and
	// partially, comparing the hash with the straight run's (see
	// syncTest): a check of the rewind itself, which costs two replays a
	// tick. 0: off.
	SyncTest int
	// ReplayEach replays to the present after each server message that
	// rewinds, as the client did before one replay a turn (see
	// client_turn.go): for comparison. Off (the default), within a turn
	// (BeginTurn) every message is taken first and the world replayed
	// once, with the same bits.
	ReplayEach bool
	// FullRepairs replays every repair (a transfer or a patch taken after
	// the join) in full, as the client did before partial repairs: for
	// comparison. Off (the default), a repair's replay re-simulates only
	// the bodies it changed and those they reach, with the same bits.
	FullRepairs bool
}

// DefaultClientConfig returns state sync with the default thresholds,
// redundancy, corrections and quiet resyncs on.
func DefaultClientConfig() ClientConfig {
	return ClientConfig{Thresholds: DefaultThresholds(), Redundancy: true, Corrections: true, QuietResync: true}
}

// Kind classifies a misprediction.
type Kind int

// Kinds of misprediction.
const (
	// KindInput: the server applied other inputs of this client's than the
	// client predicted with (inputs lost beyond redundancy, skipped or
	// repeated ticks).
	KindInput Kind = iota
	// KindServer: a server-only event (the nudge) happened.
	KindServer
	// KindNondeterminism: same starting state, same inputs, different bits.
	// Counted only when the client's state at the start of the span was
	// known to be the server's, bit for bit.
	KindNondeterminism
	// KindUnverified: same inputs, no server event, different bits, but
	// the client's state at the start of the span was not known to be the
	// server's (corrections off, or a difference left uncorrected), so the
	// difference says nothing about determinism.
	KindUnverified
	// KindRemote: another player's inputs differed from the ones the client
	// predicted them with.
	KindRemote
	// KindRewind: the sync test (ClientConfig.SyncTest) rewound and
	// re-simulated ticks the client had predicted, with the same inputs,
	// and got other bits: state the rewind did not bring back, or a
	// partial replay that left out a body it reaches. A nondeterminism of
	// the client's own, found without a server.
	KindRewind
	// NumKinds is the number of kinds.
	NumKinds
)

// String names the kind as the JSON summary and the HUD do.
func (k Kind) String() string {
	if k >= NumKinds {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return [...]string{"input", "server", "nondeterminism", "unverified", "remote", "rewind"}[k]
}

// Misprediction describes one server message whose state differed from the
// client's prediction.
type Misprediction struct {
	Tick      uint32 // label of the state compared
	From      uint32 // label of the previous state taken: the span [From, Tick) is where it went wrong
	Kind      Kind
	Error     Error
	Corrected bool // a visible correction (thresholds exceeded)
	Replayed  int  // ticks re-simulated
	Jump      float64
	// Predicted and Server are the two states at DiffTick (Tick, unless
	// said otherwise), kept for reports only when the client is asked to
	// (KeepStates). In state sync Server is the prediction with the
	// snapshot's bodies and contacts put in; in input sync both come later,
	// with the transfer that repairs the client (see OnDiff).
	Predicted, Server *physics.State
	DiffTick          uint32
}

// ClientStats counts what the client did.
type ClientStats struct {
	Ticks          uint64           // ticks predicted
	HeldTicks      uint64           // ticks not predicted: joining, or the ring was full of unconfirmed history
	StatesReceived uint64           // server messages taken (snapshots, relays, transfers)
	StaleStates    uint64           // server messages older than or equal to the newest taken, ignored
	Early          uint64           // server messages about ticks the client had not reached yet, ignored
	Rejected       protocol.Rejects // messages refused, by reason: they did not decode or do not fit
	NonFinite      uint64           // steps or replays that left a non-finite world, each ended by a transfer
	Corrections    uint64           // visible corrections
	Resyncs        uint64           // quiet rewinds below the thresholds
	Refreshes      uint64           // state sync: replays with the other players' inputs a relay gave (see refresh)
	Deferred       uint64           // state sync: snapshots held back for the relay of their ticks (see awaitsRelay)
	Unrelayed      uint64           // state sync: held snapshots taken without their relay (held maxHold ticks, or beyond maxHeld)
	Mispredicted   [NumKinds]uint64
	ReplayedTicks  uint64
	MaxReplay      int
	Unapplied      uint64 // mispredictions not corrected because corrections are off
	Incomplete     uint64 // snapshots that did not carry every body that changed
	Transfers      uint64 // whole states received
	// Repairs by buckets (client_repair.go): patches taken, and patches
	// that did not give the server's state (the client then asks for all).
	Patches, PatchMismatches uint64
	InputsSent               uint64
	BytesSent                uint64
	BodiesReceived           uint64 // bodies in the snapshots taken
	PartialReplays           uint64 // corrections replayed for the bodies they reach only
	PartialBodies            uint64 // bodies those replays re-simulated, summed
	FullReplays              uint64 // corrections replayed for the whole world (-full-replay, a transfer, a missing trace)
	// Confirmed counts the snapshots that differed from the prediction
	// (their hash) but carried nothing that did: the prediction of every
	// body and contact they carry was right, so nothing was replayed.
	Confirmed      uint64
	LastReplay     int           // bodies the last correction's replay re-simulated (the world's, for a full one)
	LastReplayTime time.Duration // how long its rebuild and replay took, when Wall is set
	// Resimulated counts the ticks re-simulated by rebuilds and replays
	// (corrections, refreshes, transfers, repairs, the sync test), and
	// ResimulatedBodies the bodies they re-simulated, summed over those
	// ticks (the whole world's for a tick replayed in full).
	Resimulated, ResimulatedBodies uint64
	ReplayTime                     time.Duration // the rebuilds and replays to the present, all told, when Wall is set
	// RepairTicks and RepairBodies are the part of Resimulated and
	// ResimulatedBodies that the replays of repairs (transfers and patches
	// taken after the join) re-simulated; PartialRepairs counts those
	// replayed for the bodies the repair changed and what they reach.
	RepairTicks, RepairBodies, PartialRepairs uint64
	SyncTests                                 uint64 // ticks the sync test rewound and re-simulated
	SyncTestFailures                          uint64 // of those, the ones whose replay gave other bits (KindRewind)
}

// Client predicts its player's cube in a whole world and keeps it in step
// with the server. It does not read a clock: the caller steps it and hands
// it the server's messages.
type Client struct {
	Config ClientConfig
	Smooth Smoother
	Stats  ClientStats
	Hooks
	// Sync is where the client stands against the server's clock.
	Sync TimeSync

	world  *physics.World
	scene  *game.Scene
	player int         // player number
	body   int         // its cube's body index
	bounds game.Bounds // what the engine can produce in the scene: states beyond are refused
	first  uint32      // first tick predicted
	hist   history
	known  [game.MaxPlayers]game.Input // newest input known of each player, for predicting the others
	hold   int                         // ticks still to skip, time sync's jump back

	join joinState  // the Hello, the Welcome and the wait for a join's transfer
	view serverView // the newest server message taken, and where it left the client

	mode syncMode     // &st or &in: what the core asks of its sync mode
	st   clientState  // state sync: snapshots
	in   clientInputs // input sync: relays
	xfer transfer     // a transfer being put together, in either mode
	rep  clientRepair // a repair by buckets: the client's state at its tick

	rerun  replayState // the rewind and replay in progress, and what the last one did
	report reports     // what the client tells of its newest comparison
	buf    buffers     // reused from message to message
}

// Hooks are what the caller can hang on a client: callbacks on its
// mispredictions and steps, and the clocks it may read.
type Hooks struct {
	// KeepStates copies both states into each Misprediction (allocates).
	KeepStates bool
	// KeepCorrection keeps, at each rewind to a server's state, the bodies
	// whose prediction differed from it (Correction); off, nothing is
	// compared for it.
	KeepCorrection bool
	// KeepReplayed gathers the bodies every replay re-simulated, replay
	// after replay, until TakeReplayed hands them over; off, only the last
	// replay's set is kept (Replayed).
	KeepReplayed bool
	// OnMispredict, when set, is called for every misprediction; the
	// pointer is valid during the call only.
	OnMispredict func(*Misprediction)
	// OnDiff, when set, is called in input sync when the transfer that
	// repairs a nondeterminism arrives, with that misprediction and both
	// states at the transfer's tick (DiffTick).
	OnDiff func(*Misprediction)
	// Perturb, when set, is called after each predicted or replayed step
	// with the tick just simulated, before the state is hashed; it may
	// change the world. It is how -inject-nondeterminism makes the client
	// differ from the server: a change made there is always in the state
	// labelled tick+1, which the server's message for that label shows.
	// body is the client's own cube.
	Perturb func(w *physics.World, tick uint32, body int)

	// Clock, when set, gives the client's time for the round trip that the
	// Hello measures.
	Clock func() time.Duration
	// Wall, when set, gives the wall clock, to time rewinds for display
	// (Stats.LastReplayTime); the simulation never reads it.
	Wall func() time.Duration
}

// joinState is how far the client's join has come.
type joinState struct {
	nonce      uint64
	joined     bool
	waitingFor bool          // joined, but waiting for the transfer the Welcome announced, or one asked for after a non-finite step
	waited     uint32        // ticks waited for it
	helloIn    uint32        // ticks before the next Hello
	helloSent  bool          // a Hello went: firstHello holds its clock
	firstHello uint32        // the clock of the first Hello, ms
	rtt        time.Duration // the round trip the Hello measured
}

// serverView is the newest server message the client took.
type serverView struct {
	newest     uint32 // label of the newest server message taken
	haveNewest bool
	synced     bool   // the client's state at newest is the server's, bit for bit
	askXfer    bool   // ask the server for a whole state
	events     uint32 // server event count as of newest
	skipped    uint32
	newestBody physics.BodyState // the player in the newest server state taken
	lastSynced uint32            // newest tick at which the client was known to be the server's
}

// reports is what the client tells of its newest comparison.
type reports struct {
	last     Misprediction
	lastErr  float64 // position error at the newest state received, m
	compared Compared
	teleport physics.Vec3 // sum of the player's jumps from rewinds, for display statistics
}

// buffers are reused from message to message.
type buffers struct {
	frag   wire.Fragment
	welc   wire.Welcome
	out    []byte
	window []game.Input
}

// replayState is the rewind and replay in progress.
type replayState struct {
	part      physics.Set // the bodies the replay in progress follows
	partReady bool        // part was set up for the next replay
	following bool        // the replay in progress is partial
	// keysFrom: while set (a transfer's replay), the replay keeps no
	// keyframe of a tick before it (see sparseKeys).
	keysFrom   uint32
	sparseKeys bool
	lastFull   bool          // the last replay was a full one
	lastBodies int           // the bodies the last partial replay followed
	lastSet    []int32       // their list, in the order the replay followed them (Replayed)
	replays    uint64        // the replays counted, partial or full
	since      replayedSince // the replays since the last TakeReplayed (KeepReplayed)
	corr       Correction    // the newest rewind to a server's state (KeepCorrection)
	rewindFrom time.Duration // Wall at the start of the rewind in progress
	syncState  physics.State // the straight run's state, while the sync test replays
	stale      bool          // a record changed after the world was simulated with it
	staleFrom  uint32        // the first such tick

	park park // the turn's replay in progress (client_turn.go)
}

// clientState is a state-sync client's part: the views of the snapshots
// it took (which the server encodes against), and the buffers reused from
// snapshot to snapshot.
type clientState struct {
	views     protocol.Views
	snap      wire.Snapshot
	state     physics.State
	server    physics.State
	present   physics.State // the world at the present, kept while a snapshot rebuilds an earlier tick
	patchd    []int32
	mark      []bool
	contacts  []physics.ContactState
	held      []heldSnapshot // snapshots held back for their relays (awaitsRelay), oldest first
	relayEnd  uint32         // the end of the newest relay's run
	relayAt   uint32         // the client's tick when the last relay came
	haveRelay bool
}

// clientInputs is an input-sync client's part.
type clientInputs struct {
	confirmed uint32         // ticks before it are the server's (inputs, events, skips)
	pending   *Misprediction // a nondeterminism waiting for the transfer that gives its field diff
	relay     wire.Relay     // reused from message to message
}

// NewClient returns a client for player 0, predicting with world w, built
// as scene sc (the server must have built the same one: the Hello checks),
// in mode cfg.Mode. nonce tells its Hello apart from an earlier one.
func NewClient(cfg ClientConfig, w *physics.World, sc *game.Scene, nonce uint64) *Client {
	c := &Client{Config: cfg, Smooth: NewSmoother(), world: w, scene: sc, body: sc.Players[0], join: joinState{nonce: nonce}}
	c.bounds = game.BoundsOf(w, sc.Options)
	c.first = w.Tick()
	c.Sync.On, c.Sync.Speed = cfg.TimeSync, 1
	c.mode = &c.st
	if cfg.Mode == InputSync {
		c.mode = &c.in
	}
	return c
}

// World returns the client's predicted world.
func (c *Client) World() *physics.World { return c.world }

// Scene returns the scene the client's world was built as.
func (c *Client) Scene() *game.Scene { return c.scene }

// Body returns the body index of the client's player cube.
func (c *Client) Body() int { return c.body }

// Slot returns the client's player slot on the server (valid once joined).
func (c *Client) Slot() int { return c.player }

// Welcomed reports whether the server accepted the client, so that Slot
// is its slot (it may still be waiting for its first state).
func (c *Client) Welcomed() bool { return c.join.joined }

// Joined reports whether the server accepted the client and it predicts.
func (c *Client) Joined() bool { return c.join.joined && !c.join.waitingFor }

// Tick returns the next tick the client will predict.
func (c *Client) Tick() uint32 {
	if c.rerun.park.on {
		return c.rerun.park.now
	}
	return c.world.Tick()
}

// Newest returns the label of the newest server message taken, and whether
// there is one.
func (c *Client) Newest() (uint32, bool) { return c.view.newest, c.view.haveNewest }

// NewestBody returns the player's body in the newest server state known:
// the "last snapshot" cube.
func (c *Client) NewestBody() physics.BodyState { return c.view.newestBody }

// Last returns the newest misprediction.
func (c *Client) Last() Misprediction { return c.report.last }

// LastError returns the player's position error at the newest state
// received, in metres.
func (c *Client) LastError() float64 { return c.report.lastErr }

// InSync reports whether the client's state at the newest server message
// is known to be the server's, bit for bit.
func (c *Client) InSync() bool { return c.view.synced }

// Compared is the newest comparison of a prediction with a server state.
type Compared struct {
	Tick                   uint32
	ClientHash, ServerHash uint64
}

// Compared returns the newest comparison of a predicted state with the
// server's, before any correction.
func (c *Client) Compared() Compared { return c.report.compared }

// View returns the view of the snapshot labelled t the client keeps (state
// sync: the bodies as the snapshots told them, which later snapshots are
// encoded against), or nil when it keeps none for t. Read only.
func (c *Client) View(t uint32) *protocol.View { return c.st.views.Get(t) }

// NewestView returns the newest snapshot view the client keeps, or nil.
// Read only.
func (c *Client) NewestView() *protocol.View { return c.st.views.Newest() }

// TakeTeleport returns how far rewinds moved the player since the last
// call, and starts counting again from zero.
func (c *Client) TakeTeleport() physics.Vec3 {
	t := c.report.teleport
	c.report.teleport = physics.Vec3{}
	return t
}

// InFlight returns the number of ticks predicted but not yet confirmed by a
// server message.
func (c *Client) InFlight() uint32 { return c.Tick() - c.oldestNeeded() }

// oldestNeeded is the first tick the server may still lack inputs for and
// the client may still rewind to.
func (c *Client) oldestNeeded() uint32 {
	if t, ok := c.mode.confirmedFrom(c); ok {
		return t
	}
	if c.view.haveNewest {
		return c.view.newest
	}
	return c.first
}
