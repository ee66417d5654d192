package predict

import (
	"errors"
	"fmt"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/wire"
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
)

// SnapshotRates are the snapshot rates a session accepts, in Hz.
var SnapshotRates = []int{64, 32, 16, 8, 4, 2, 1}

// checkSnapshotRate refuses a rate that is not one of SnapshotRates.
func checkSnapshotRate(hz int) error {
	if !ValidSnapshotRate(hz) {
		return fmt.Errorf("predict: snapshot rate %d Hz, want one of %v", hz, SnapshotRates)
	}
	return nil
}

// ValidSnapshotRate reports whether hz is one of SnapshotRates.
func ValidSnapshotRate(hz int) bool {
	for _, r := range SnapshotRates {
		if r == hz {
			return true
		}
	}
	return false
}

// SessionConfig configures a client and a server over a simulated link.
type SessionConfig struct {
	Preset     string            // name of the link conditions, for reports
	Conditions netsim.Conditions // both directions
	Seed       uint64            // link and autopilot randomness
	SnapshotHz int               // one of SnapshotRates
	Client     ClientConfig
	Smoothing  bool
	Missing    Missing
	NudgeEvery time.Duration // 0: never
	StartTick  uint32        // first tick; near 2³² to test the wrap
	Physics    physics.Config
	Scene      string       // one of game.Names()
	Options    game.Options // the scene's options
	// DownBudget is the state-sync snapshots' budget in bytes per second
	// (DefaultDownBudget: Fiedler's 256 kbit/s); 0: no budget, every
	// snapshot up to a datagram.
	DownBudget float64
}

// DefaultDownBudget is the snapshot budget of the original GDC demo:
// 256 kbit/s.
const DefaultDownBudget = 256000 / 8

// DefaultSessionConfig returns the "good" preset at 64 Hz snapshots with
// redundancy, corrections and smoothing on.
func DefaultSessionConfig() SessionConfig {
	p, _ := netsim.PresetByName("good")
	return SessionConfig{
		Preset: p.Name, Conditions: p.Conditions, Seed: 1, SnapshotHz: 64,
		Client: DefaultClientConfig(), Smoothing: true, Physics: physics.DefaultConfig(), Scene: "arena",
		DownBudget: DefaultDownBudget,
	}
}

// Session wires a client and a server through a pair of simulated links on
// a virtual clock. Tick advances it by one client tick; Frame advances the
// display.
type Session struct {
	Config SessionConfig
	Client *Client
	Server *Server
	Link   *netsim.Pair

	now       time.Duration
	tick      time.Duration // one tick, from the physics configuration
	nextSnap  time.Duration
	nextNudge time.Duration
	draining  bool      // no more server events: the run is letting the link drain
	played    [2]uint64 // bytes sent up and down until the drain began
	rng       rng
	up, down  func([]byte) // sendUp and sendDown, bound once

	// Poll, when set, is called once per tick by Run; when it returns true
	// the run stops at once, without draining, and its summary says it
	// was interrupted. The caller's hook for signals and progress.
	Poll func(s *Session) bool

	// Measurements.
	Meter      Meter     // the traffic of the last second
	MaxUp      int       // the largest datagram sent up, bytes
	MaxDown    int       // the largest datagram sent down, bytes
	Timeline   []Second  // traffic and corrections second by second
	PosErrors  []float64 // player position error at each state received, m
	MaxDisplay float64   // largest frame-to-frame display move caused by corrections, m
	lastOffset mgl64.Vec3
	lastStates uint64
	lastBodies uint64
	lastCorr   uint64
	lastResync uint64
}

// NewSession builds the canonical scene twice (client and server) and
// links them.
func NewSession(cfg SessionConfig) (*Session, error) {
	if err := checkSnapshotRate(cfg.SnapshotHz); err != nil {
		return nil, err
	}
	if cfg.NudgeEvery < 0 {
		return nil, fmt.Errorf("predict: nudge interval %v is negative", cfg.NudgeEvery)
	}
	if d := tick.Duration(cfg.Physics); d < time.Microsecond {
		return nil, fmt.Errorf("predict: physics step %v s is shorter than a microsecond", cfg.Physics.Dt)
	}
	link, err := netsim.NewPair(cfg.Conditions, cfg.Seed)
	if err != nil {
		return nil, err
	}
	worlds := [2]*physics.World{}
	scenes := [2]*game.Scene{}
	for i := range worlds {
		w, sc, err := game.Build(cfg.Scene, cfg.Physics, cfg.Options)
		if err != nil {
			return nil, err
		}
		w.SkipTo(cfg.StartTick)
		worlds[i], scenes[i] = w, sc
	}
	s := &Session{Config: cfg, Link: link, rng: rng{s: cfg.Seed ^ 0xc0be}, tick: tick.Duration(cfg.Physics)}
	s.Client = NewClient(cfg.Client, worlds[0], scenes[0], cfg.Seed^0x4e0c)
	s.Client.Smooth.Enabled = cfg.Smoothing
	s.Server = NewServer(worlds[1], scenes[1], cfg.Client.Mode, 0)
	s.Server.BytesPerSecond = cfg.DownBudget
	s.up, s.down = s.sendUp, s.sendDown
	s.Meter = newMeter(s.tick)
	s.Server.Missing = cfg.Missing
	s.nextNudge = cfg.NudgeEvery
	return s, nil
}

// TickDuration returns the length of one tick.
func (s *Session) TickDuration() time.Duration { return s.tick }

// Now returns the session's virtual time.
func (s *Session) Now() time.Duration { return s.now }

// SetConditions changes both links' conditions; packets in flight keep theirs.
func (s *Session) SetConditions(name string, c netsim.Conditions) error {
	if err := s.Link.SetConditions(c); err != nil {
		return err
	}
	s.Config.Preset, s.Config.Conditions = name, c
	return nil
}

// SetSnapshotRate changes the server's snapshot rate.
func (s *Session) SetSnapshotRate(hz int) error {
	if err := checkSnapshotRate(hz); err != nil {
		return err
	}
	s.Config.SnapshotHz = hz
	return nil
}

// Nudge schedules a server-only push on the player: 1.5 m/s sideways in a
// seeded direction and 1 m/s up, enough for a correction of about a metre at
// a 500 ms round trip.
func (s *Session) Nudge() {
	x := 1.5
	if s.rng.intn(2) == 0 {
		x = -x
	}
	s.Server.Nudge(physics.Vec3{X: x, Y: 1, Z: 0.5 - s.rng.float()})
}

// Tick advances the session by one client tick at the current time: the
// client receives due snapshots, predicts with in and sends its inputs; the
// server receives due inputs, simulates and, on its schedule, sends a
// snapshot. Then the clock moves on by one tick.
func (s *Session) Tick(in game.Input) error {
	for _, p := range s.Link.Down.Receive(s.now) {
		if err := s.Client.Receive(p.Data); err != nil && !errors.Is(err, wire.ErrRejected) {
			return fmt.Errorf("client: %w", err)
		}
	}
	if st := s.Client.Stats.StatesReceived; st != s.lastStates {
		s.lastStates = st
		e := s.Client.LastError()
		s.PosErrors = append(s.PosErrors, e)
		if k := int(s.now / time.Second); k < len(s.Timeline) {
			s.Timeline[k].MaxError = max(s.Timeline[k].MaxError, e)
		} else if k == len(s.Timeline) {
			s.Timeline = append(s.Timeline, Second{MaxError: e})
		}
	}

	if err := s.Client.Step(in, s.up); err != nil {
		return fmt.Errorf("client: %w", err)
	}

	if s.Config.NudgeEvery > 0 && !s.draining && s.now >= s.nextNudge {
		s.Nudge()
		s.nextNudge += s.Config.NudgeEvery
	}
	for _, p := range s.Link.Up.Receive(s.now) {
		if err := s.Server.Receive(s.now, p.Data); err != nil && !errors.Is(err, wire.ErrRejected) {
			return fmt.Errorf("server: %w", err)
		}
	}
	due := s.now >= s.nextSnap
	if due {
		s.nextSnap += time.Second / time.Duration(s.Config.SnapshotHz)
	}
	s.Server.Send(s.now, due, s.down)
	s.account(s.Server.Stats.BodiesSent)
	s.now += s.tick
	return nil
}

// sendUp and sendDown put a datagram on the link now.
func (s *Session) sendUp(b []byte) {
	s.Link.Up.Send(s.now, b)
	s.Meter.now.UpBytes += len(b)
	s.Meter.now.UpPackets++
	s.MaxUp = max(s.MaxUp, len(b))
}

func (s *Session) sendDown(b []byte) {
	s.Link.Down.Send(s.now, b)
	s.Meter.now.DownBytes += len(b)
	s.Meter.now.DownPackets++
	s.MaxDown = max(s.MaxDown, len(b))
}

// Second is one second of a session, for plots.
type Second struct {
	Traffic
	Corrections, Resyncs uint64
	MaxError             float64 // the largest player position error seen, m
}

// account closes the tick: the meter, and the timeline's second.
func (s *Session) account(bodies uint64) {
	s.Meter.now.Bodies = int(bodies - s.lastBodies)
	s.lastBodies = bodies
	k := int((s.now + s.tick - 1) / time.Second)
	for len(s.Timeline) <= k {
		s.Timeline = append(s.Timeline, Second{})
	}
	sec := &s.Timeline[k]
	sec.add(&s.Meter.now)
	c := &s.Client.Stats
	sec.Corrections += c.Corrections - s.lastCorr
	sec.Resyncs += c.Resyncs - s.lastResync
	s.lastCorr, s.lastResync = c.Corrections, c.Resyncs
	s.Meter.endTick()
}

// Frame advances the display by dt seconds: the smoothing offset decays.
// It measures how far the displayed cube moved because of corrections.
func (s *Session) Frame(dt float64) {
	s.Client.Smooth.Update(dt)
	off, _ := s.Client.Smooth.Offset()
	t := s.Client.takeTeleport()
	move := off.Sub(s.lastOffset).Add(mgl64.Vec3{t.X, t.Y, t.Z}).Len()
	s.lastOffset = off
	s.MaxDisplay = math.Max(s.MaxDisplay, move)
}

// Display returns the displayed pose of the player cube.
func (s *Session) Display() (mgl64.Vec3, mgl64.Quat) {
	b := s.Client.World().Body(s.Client.Player())
	return s.Client.Smooth.Display(b.Pos, b.Rot)
}
