package predict

import (
	"fmt"
	"math"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// ClientConfig sets how the client predicts and corrects.
type ClientConfig struct {
	Thresholds  Thresholds
	Redundancy  bool // send every input since the newest state received, not just the current one
	Corrections bool // rewind and replay on a misprediction; off, the client drifts from the server
	// QuietResync rewinds and replays also when the bits differ but no
	// threshold is exceeded, without a visible correction, so that the
	// client stays bit-identical with the server.
	QuietResync bool
}

// DefaultClientConfig returns the default thresholds with redundancy,
// corrections and quiet resyncs on.
func DefaultClientConfig() ClientConfig {
	return ClientConfig{Thresholds: DefaultThresholds(), Redundancy: true, Corrections: true, QuietResync: true}
}

// Kind classifies a misprediction.
type Kind int

// Kinds of misprediction.
const (
	// KindInput: the server applied a different input stream than the client
	// predicted with (inputs lost beyond redundancy, skipped ticks).
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
	// NumKinds is the number of kinds.
	NumKinds
)

func (k Kind) String() string {
	return [...]string{"input", "server", "nondeterminism", "unverified"}[k]
}

// Misprediction describes one state message whose bits differed from the
// client's prediction.
type Misprediction struct {
	Tick      uint32 // label of the state compared
	From      uint32 // tick of the previous state applied: the span [From, Tick) is where it went wrong
	Kind      Kind
	Error     Error
	Corrected bool // a visible correction (thresholds exceeded)
	Replayed  int  // ticks re-simulated
	Jump      float64
	// Predicted and Server are the two states at Tick, kept for reports only
	// when the client is asked to (KeepStates).
	Predicted, Server *physics.State
}

// ClientStats counts what the client did.
type ClientStats struct {
	Ticks          uint64  // ticks predicted
	HeldTicks      uint64  // ticks not predicted because the ring was full of unacknowledged history
	StatesReceived uint64  // state messages applied (not stale)
	StaleStates    uint64  // state messages older than or equal to the newest applied, ignored
	Rejected       Rejects // messages refused, by reason: they did not decode or do not fit
	Corrections    uint64  // visible corrections
	Resyncs        uint64  // quiet rewinds below the thresholds
	Mispredicted   [NumKinds]uint64
	ReplayedTicks  uint64
	MaxReplay      int
	Unapplied      uint64 // mispredictions not corrected because corrections are off
	InputsSent     uint64
	BytesSent      uint64
}

// Client predicts the player's cube.
type Client struct {
	Config ClientConfig
	Smooth Smoother
	Stats  ClientStats
	// KeepStates copies both states into each Misprediction (allocates).
	KeepStates bool
	// OnMispredict, when set, is called for every misprediction; the
	// pointer is valid during the call only.
	OnMispredict func(*Misprediction)
	// Perturb, when set, is called before each predicted or replayed step
	// with the tick about to be simulated; it may change the world. It is
	// how -inject-nondeterminism makes the client differ from the server.
	Perturb func(w *physics.World, tick uint32)

	world  *physics.World
	scene  *game.Scene
	player int    // body index of the player's cube
	first  uint32 // first tick predicted
	inputs ring[game.Input]
	states ring[physics.State] // state before the input of that tick
	chains ring[uint64]        // input chain at that tick

	newest     uint32 // label of the newest state applied
	haveNewest bool
	// synced says that the client's state at newest (at first before any
	// state arrived) is the server's, bit for bit: its prediction matched
	// or it rewound to the server's state. Only then can a later
	// difference with the same inputs be blamed on nondeterminism.
	synced     bool
	newestBody physics.BodyState // the player in the newest state applied
	events     uint32            // server event count as of newest
	skipped    uint32

	last     Misprediction
	lastErr  float64 // position error at the newest state received, m
	compared Compared
	teleport physics.Vec3 // sum of the player's jumps from rewinds, for display statistics
	msg      StateMsg
	window   []game.Input
}

// NewClient returns a client predicting with world w, built as scene sc,
// whose current tick is the first the client will predict. The client
// plays player 0.
func NewClient(cfg ClientConfig, w *physics.World, sc *game.Scene) *Client {
	c := &Client{Config: cfg, Smooth: NewSmoother(), world: w, scene: sc, player: sc.Players[0], first: w.Tick(), synced: true}
	*c.chains.put(c.first) = chainStart
	return c
}

// World returns the client's predicted world.
func (c *Client) World() *physics.World { return c.world }

// Scene returns the scene the client's world was built as.
func (c *Client) Scene() *game.Scene { return c.scene }

// Player returns the body index of the client's player cube.
func (c *Client) Player() int { return c.player }

// Tick returns the next tick the client will predict.
func (c *Client) Tick() uint32 { return c.world.Tick() }

// Newest returns the label of the newest server state applied, and whether
// there is one.
func (c *Client) Newest() (uint32, bool) { return c.newest, c.haveNewest }

// NewestBody returns the player's body in the newest server state applied:
// the "last snapshot" cube.
func (c *Client) NewestBody() physics.BodyState { return c.newestBody }

// Last returns the newest misprediction.
func (c *Client) Last() Misprediction { return c.last }

// LastError returns the player's position error at the newest state
// received, in metres.
func (c *Client) LastError() float64 { return c.lastErr }

// Compared is the newest comparison of a prediction with a server state.
type Compared struct {
	Tick                   uint32
	ClientHash, ServerHash uint64
}

// Compared returns the newest comparison of a predicted state with the
// server's, before any correction.
func (c *Client) Compared() Compared { return c.compared }

// takeTeleport returns how far rewinds moved the player since the last call.
func (c *Client) takeTeleport() physics.Vec3 {
	t := c.teleport
	c.teleport = physics.Vec3{}
	return t
}

// InFlight returns the number of ticks predicted but not yet confirmed by a
// server state.
func (c *Client) InFlight() uint32 { return c.Tick() - c.oldestNeeded() }

// oldestNeeded is the first tick the server may still need inputs for and
// the client may still rewind to.
func (c *Client) oldestNeeded() uint32 {
	if c.haveNewest {
		return c.newest
	}
	return c.first
}

// Step predicts one tick with input in and appends the input message to
// send to b. When the unacknowledged history fills the ring, the client
// holds: it does not predict (counted in HeldTicks) and resends what the
// server is missing, so that it never overwrites history it may rewind to.
func (c *Client) Step(in game.Input, b []byte) ([]byte, error) {
	t := c.Tick()
	if c.InFlight() >= RingSize-1 {
		c.Stats.HeldTicks++
	} else {
		*c.inputs.put(t) = in
		c.world.Save(c.states.put(t))
		if c.Perturb != nil {
			c.Perturb(c.world, t)
		}
		if err := c.scene.Step1(c.world, in); err != nil {
			return b, err
		}
		ch, _ := c.chains.get(t)
		*c.chains.put(t + 1) = foldInput(*ch, t, uint8(in))
		c.Stats.Ticks++
	}
	return c.appendInputs(b)
}

// appendInputs encodes the inputs the server may still need: from the
// newest state received (or just the newest input, without redundancy).
func (c *Client) appendInputs(b []byte) ([]byte, error) {
	end := c.Tick()
	if end == c.first {
		return b, nil // nothing predicted yet
	}
	from := c.oldestNeeded()
	if !c.Config.Redundancy {
		from = end - 1
	}
	c.window = c.window[:0]
	for t := from; t != end; t++ {
		in, ok := c.inputs.get(t)
		if !ok {
			return b, fmt.Errorf("predict: input of tick %d is missing from the ring", t)
		}
		c.window = append(c.window, *in)
	}
	n := len(b)
	b, first := AppendInput(b, from, c.window)
	c.Stats.InputsSent += uint64(end - first)
	c.Stats.BytesSent += uint64(len(b) - n)
	return b, nil
}

// Receive handles one message from the server. A message that does not
// decode or does not fit is counted in Stats.Rejected and dropped, and the
// error returned wraps ErrRejected; any other error is the client's own
// fault.
func (c *Client) Receive(b []byte) error {
	if err := DecodeState(b, &c.msg); err != nil {
		return c.Stats.Rejected.reject(RejectMalformed, "%v", err)
	}
	return c.OnState(&c.msg)
}

// OnState compares a server state with the prediction for its tick and, when
// they differ, rewinds to it and replays the buffered inputs. m.Hash must be
// the hash of m.State (DecodeState checks it). A state that does not fit the
// client's world or its ticks is rejected (see Receive) before anything
// changes.
func (c *Client) OnState(m *StateMsg) error {
	T := m.Tick
	if c.haveNewest && !After(T, c.newest) {
		c.Stats.StaleStates++
		return nil
	}
	if After(c.first, T) {
		c.Stats.StaleStates++ // from before this client's first tick
		return nil
	}
	if After(T, c.Tick()) {
		return c.Stats.Rejected.reject(RejectTick, "state for tick %d, but the client has only reached tick %d", T, c.Tick())
	}
	if m.State.Tick != T {
		return c.Stats.Rejected.reject(RejectShape, "state of tick %d labelled %d", m.State.Tick, T)
	}
	if err := c.world.Check(&m.State); err != nil {
		return c.Stats.Rejected.reject(RejectShape, "state for tick %d: %v", T, err)
	}
	pred, ok := c.states.get(T)
	if !ok {
		if T != c.Tick() {
			return c.Stats.Rejected.reject(RejectTick, "state for tick %d, which the client no longer holds", T)
		}
		// A state for the very tick about to be predicted: compare with
		// the world as it stands.
		pred = c.world.State()
	}
	c.Stats.StatesReceived++
	from := c.oldestNeeded()
	e := stateError(c.world, pred, &m.State)
	c.lastErr = math.Sqrt(bodyError(&pred.Bodies[c.player], &m.State.Bodies[c.player]).Pos2)
	chain, _ := c.chains.get(T)
	c.compared = Compared{Tick: T, ClientHash: pred.Hash(), ServerHash: m.Hash}

	if c.compared.ClientHash != m.Hash {
		mp := &c.last
		*mp = Misprediction{Tick: T, From: from, Error: e, Corrected: e.Exceeds(c.Config.Thresholds)}
		switch {
		case m.Events != c.events:
			mp.Kind = KindServer
		case m.Skipped != c.skipped || chain == nil || *chain != m.Chain:
			mp.Kind = KindInput
		case c.synced:
			mp.Kind = KindNondeterminism
		default:
			mp.Kind = KindUnverified
		}
		c.Stats.Mispredicted[mp.Kind]++
		if c.KeepStates {
			mp.Predicted, mp.Server = new(physics.State), new(physics.State)
			mp.Predicted.CopyFrom(pred)
			mp.Server.CopyFrom(&m.State)
		}
		switch {
		case !c.Config.Corrections:
			c.Stats.Unapplied++
			c.synced = false
		case mp.Corrected || c.Config.QuietResync:
			if err := c.rewind(m, mp); err != nil {
				return err
			}
			c.synced = true
		default:
			c.synced = false // a difference below the thresholds, left alone
		}
		if c.OnMispredict != nil {
			c.OnMispredict(mp)
		}
	} else {
		c.synced = true
	}

	c.newest, c.haveNewest = T, true
	c.newestBody = m.State.Bodies[c.player]
	c.events, c.skipped = m.Events, m.Skipped
	// Adopt the server's chain at T and refold the buffered inputs on it.
	*c.chains.put(T) = m.Chain
	for t := T; t != c.Tick(); t++ {
		in, _ := c.inputs.get(t)
		ch, _ := c.chains.get(t)
		*c.chains.put(t + 1) = foldInput(*ch, t, uint8(*in))
	}
	return nil
}

// rewind restores the server's state for m.Tick and re-simulates up to the
// present with the input buffered for each tick (never the current one),
// rewriting the state ring.
func (c *Client) rewind(m *StateMsg, mp *Misprediction) error {
	before := c.world.Body(c.player)
	now := c.Tick()
	if err := c.world.Restore(&m.State); err != nil {
		return fmt.Errorf("predict: server state for tick %d: %w", m.Tick, err)
	}
	for t := m.Tick; t != now; t++ {
		in, ok := c.inputs.get(t)
		if !ok {
			return fmt.Errorf("predict: replay: input of tick %d is missing from the ring", t)
		}
		c.world.Save(c.states.put(t))
		if c.Perturb != nil {
			c.Perturb(c.world, t)
		}
		if err := c.scene.Step1(c.world, *in); err != nil {
			return err
		}
	}
	after := c.world.Body(c.player)
	mp.Replayed = int(now - m.Tick)
	mp.Jump = before.Pos.Sub(after.Pos).Len()
	c.teleport = c.teleport.Add(after.Pos.Sub(before.Pos))
	c.Stats.ReplayedTicks += uint64(mp.Replayed)
	c.Stats.MaxReplay = max(c.Stats.MaxReplay, mp.Replayed)
	if mp.Corrected {
		c.Stats.Corrections++
	} else {
		c.Stats.Resyncs++
	}
	c.Smooth.Correct(before.Pos, after.Pos, before.Rot, after.Rot)
	return nil
}
