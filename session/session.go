package session

import (
	"fmt"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/splitmix"
	"github.com/cubelab/cube/transport"
	"github.com/go-gl/mathgl/mgl64"
)

// Config configures a client and a server over a simulated link.
type Config struct {
	Preset     string            // name of the link conditions, for reports
	Conditions netsim.Conditions // both directions
	Seed       uint64            // link and autopilot randomness
	SnapshotHz int               // one of server.SnapshotRates
	Client     predict.ClientConfig
	Smoothing  bool
	Missing    server.Missing
	NudgeEvery time.Duration // 0: never
	StartTick  uint32        // first tick; near 2³² to test the wrap
	Physics    physics.Config
	Scene      string       // one of game.Names()
	Options    game.Options // the scene's options
	// Players is the number of clients, each with its own link and
	// autopilot (client 0 is the window's): 1 to game.MaxPlayers.
	Players int
	// Bots is the number of remote players besides them, each with its
	// own link and autopilot but no world (predict.Bot): the other
	// players a window shows without simulating their clients. Players
	// plus Bots is at most game.MaxPlayers.
	Bots int
	// Clocked runs the server on its own clock, each client ahead of it by
	// time sync; off, the original demo's model (one player): the server
	// steps when the client's inputs arrive.
	Clocked bool
	// DownBudget is the state-sync snapshots' budget in bytes per second
	// (server.DefaultDownBudget: Fiedler's 256 kbit/s); 0: no budget, every
	// snapshot up to a datagram.
	DownBudget float64
	// ClientWorkers is how many goroutines run the clients' turns side by
	// side between two server turns (see advanceSideBySide): 0 uses
	// runtime.GOMAXPROCS, 1 runs every turn one after another in time
	// order. Either way the results are the same, bit for bit.
	ClientWorkers int
}

// DefaultConfig returns the "good" preset at 64 Hz snapshots with
// redundancy, corrections and smoothing on.
func DefaultConfig() Config {
	p, _ := netsim.PresetByName("good")
	return Config{
		Preset: p.Name, Conditions: p.Conditions, Seed: 1, SnapshotHz: 64,
		Client: predict.DefaultClientConfig(), Smoothing: true, Physics: physics.DefaultConfig(), Scene: "arena",
		DownBudget: server.DefaultDownBudget, Players: 1, Clocked: true,
	}
}

// Session runs a server and its clients in one process, on one virtual
// clock, each client with its own simulated link (transport's in-process
// implementation over netsim): the code path a real network takes, with
// every run reproducible from its seed. Advance moves the clock on; Frame
// advances the display of client 0.
type Session struct {
	Config    Config
	Server    *server.Server
	Host      *server.Host
	Clients   []*predict.Client
	Endpoints []*Endpoint
	Client    *predict.Client // Clients[0]: the one the window shows and the keys drive
	Net       *transport.MemServer
	Conns     []*transport.MemClient
	// Bots are the remote players without a world (Config.Bots), each
	// over its own link, BotConns[k].
	Bots     []*predict.Bot
	BotConns []*transport.MemClient
	// Worlds counts the physics worlds the session built: the server's
	// and one per client, none for a bot.
	Worlds int

	now        time.Duration
	tick       time.Duration // one tick, from the physics configuration
	serverNext time.Duration
	clientNext []time.Duration // the clients' next turns, then the bots'
	nextNudge  time.Duration
	draining   bool // no more server events: the run is letting the link drain
	rng        splitmix.Rand
	workers    int       // goroutines for the clients' turns; 1: one after another
	sides      []sideRun // per client, its turns of the phase under way (side by side)
	botEnds    []*botEnd // per bot, its clock, inbox and send error

	// Poll, when set, is called once per tick by Run; when it returns true
	// the run stops at once, without draining, and its summary says it
	// was interrupted. The caller's hook for signals and progress.
	Poll func(s *Session) bool

	// Measurements, of client 0.
	Meter      Meter     // the traffic of the last second
	MaxUp      int       // the largest datagram sent up, bytes
	MaxDown    int       // the largest datagram sent down, bytes
	Timeline   []Second  // traffic and corrections second by second
	PosErrors  []float64 // player position error at each state received, m
	MaxDisplay float64   // largest frame-to-frame display move caused by corrections, m
	display    DisplayTrack
	lastStates uint64
	lastBodies uint64
	lastCorr   uint64
	lastResync uint64
	down       []downWindow // per client: the bytes sent down over the last second
}

// New builds the scene for the server and for each client and
// connects them.
func New(cfg Config) (*Session, error) {
	if err := server.CheckSnapshotRate(cfg.SnapshotHz); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	if cfg.Client.SyncTest < 0 || cfg.Client.SyncTest > predict.MaxSyncTest {
		return nil, fmt.Errorf("session: sync test of %d ticks, want 0 (off) to %d", cfg.Client.SyncTest, predict.MaxSyncTest)
	}
	if cfg.NudgeEvery < 0 {
		return nil, fmt.Errorf("session: nudge interval %v is negative", cfg.NudgeEvery)
	}
	if d := tick.Duration(cfg.Physics.Dt); d < time.Microsecond {
		return nil, fmt.Errorf("session: physics step %v s is shorter than a microsecond", cfg.Physics.Dt)
	}
	if cfg.Players == 0 {
		cfg.Players = 1
	}
	if cfg.Players < 1 || cfg.Players > game.MaxPlayers {
		return nil, fmt.Errorf("session: %d players: want 1 to %d", cfg.Players, game.MaxPlayers)
	}
	if cfg.Bots < 0 || cfg.Players+cfg.Bots > game.MaxPlayers {
		return nil, fmt.Errorf("session: %d players and %d bots: want at most %d in all", cfg.Players, cfg.Bots, game.MaxPlayers)
	}
	if cfg.ClientWorkers < 0 {
		return nil, fmt.Errorf("session: %d client workers: want 0 (one per core) or more", cfg.ClientWorkers)
	}
	if cfg.Players+cfg.Bots > 1 && !cfg.Clocked {
		return nil, fmt.Errorf("session: %d players need the clocked server: the input-driven one serves one", cfg.Players)
	}
	cfg.Options.Players = max(cfg.Options.Players, cfg.Players+cfg.Bots)
	cfg.Client.TimeSync = cfg.Clocked
	build := func() (*physics.World, *game.Scene, error) {
		w, sc, err := game.Build(cfg.Scene, cfg.Physics, cfg.Options)
		if err != nil {
			return nil, nil, err
		}
		w.SkipTo(cfg.StartTick)
		return w, sc, nil
	}
	w, sc, err := build()
	if err != nil {
		return nil, err
	}
	net, err := transport.NewMemServer(nil)
	if err != nil {
		return nil, err
	}
	s := &Session{Config: cfg, Net: net, rng: splitmix.New(cfg.Seed ^ 0xc0be), tick: tick.Duration(cfg.Physics.Dt), Worlds: 1}
	scfg := server.DefaultConfig()
	scfg.Clocked, scfg.Missing, scfg.BytesPerSecond = cfg.Clocked, cfg.Missing, cfg.DownBudget
	if !cfg.Clocked {
		scfg.AheadMargin = 64
	}
	s.Server = server.New(w, sc, cfg.Client.Mode, scfg)
	if s.Host, err = server.NewHost(s.Server, net, cfg.SnapshotHz); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	seed := cfg.Seed
	for i := 0; i < cfg.Players; i++ {
		cw, csc, err := build()
		if err != nil {
			return nil, err
		}
		s.Worlds++
		c := predict.NewClient(cfg.Client, cw, csc, splitmix.Next(&seed))
		c.Smooth.Enabled = cfg.Smoothing
		conn, err := net.Connect(splitmix.Next(&seed))
		if err != nil {
			return nil, err
		}
		if err := conn.SetConditions(cfg.Conditions, cfg.Conditions); err != nil {
			return nil, err
		}
		ep := NewEndpoint(c, conn)
		// The client's clock is its own turn's time (the session's time
		// while it takes its turn), so that turns side by side each read
		// their own.
		c.Clock = ep.Now
		s.Clients, s.Conns = append(s.Clients, c), append(s.Conns, conn)
		s.Endpoints = append(s.Endpoints, ep)
		s.clientNext = append(s.clientNext, 0)
	}
	if err := s.addBots(sc, &seed); err != nil {
		return nil, err
	}
	s.Client = s.Clients[0]
	s.workers = clientWorkers(cfg.ClientWorkers, len(s.Clients))
	s.Meter = NewMeter(s.tick)
	s.nextNudge = cfg.NudgeEvery
	return s, nil
}

// TickDuration returns the length of one tick.
func (s *Session) TickDuration() time.Duration { return s.tick }

// Now returns the session's virtual time.
func (s *Session) Now() time.Duration { return s.now }

// SetConditions changes every client's link, both ways; datagrams in
// flight keep theirs.
func (s *Session) SetConditions(name string, c netsim.Conditions) error {
	if err := c.Validate(); err != nil {
		return err
	}
	for _, conn := range s.Conns {
		if err := conn.SetConditions(c, c); err != nil {
			return err
		}
	}
	s.Config.Preset, s.Config.Conditions = name, c
	return nil
}

// SetSnapshotRate changes the server's snapshot rate.
func (s *Session) SetSnapshotRate(hz int) error {
	if err := s.Host.SetSnapshotRate(hz); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	s.Config.SnapshotHz = hz
	return nil
}

// Nudge schedules a server-only push on client 0's cube (the window's):
// 1.5 m/s sideways in a seeded direction and 1 m/s up, enough for a
// correction of about a metre at a 500 ms round trip.
func (s *Session) Nudge() {
	x := 1.5
	if s.rng.Intn(2) == 0 {
		x = -x
	}
	s.Server.Nudge(s.Client.Slot(), physics.Vec3{X: x, Y: 1, Z: 0.5 - s.rng.Float64()})
}

// Tick advances the session by one tick, client 0 holding in and any
// other client no key.
func (s *Session) Tick(in game.Input) error {
	return s.Advance(s.now+s.tick, func(i int) game.Input {
		if i == 0 {
			return in
		}
		return 0
	})
}

// Advance runs the session's clock to to: every client ticks at its own
// pace (the tick rate, or faster or slower by time sync), with the input
// input(i) returns, and the server at the tick rate. Each turn takes what
// its transport has received by then first. At the same instant the
// clients go before the server.
//
// With more than one client worker (Config.ClientWorkers), the
// clients' turns between two server turns run side by side, and input
// may be called for different clients at the same time: it must read
// nothing another client's turn writes (each client's own autopilot and
// world are fine). The results are the same as one after another.
func (s *Session) Advance(to time.Duration, input func(i int) game.Input) error {
	if s.workers > 1 {
		return s.advanceSideBySide(to, input)
	}
	for {
		// The earliest turn; at the same instant clients go before the
		// server, and a lower index first.
		who, t := -1, s.serverNext
		for i, n := range s.clientNext {
			if n < t || n == t && who < 0 {
				who, t = i, n
			}
		}
		if t >= to {
			break
		}
		s.now = t
		if who >= 0 {
			if err := s.clientTurn(who, t, input(who)); err != nil {
				return err
			}
			if e, ok := s.turnPosError(who); ok {
				s.notePosError(t, e)
			}
			continue
		}
		if err := s.serverTurn(); err != nil {
			return err
		}
		s.serverNext += s.tick
	}
	s.now = to
	return nil
}

// clientTurn is one tick of client i at time at, and the time of its next
// turn. It touches client i's own objects only (its client, endpoint, link
// and next turn), so that turns of different clients can run side by side.
// From len(Clients) on, i is a bot's turn.
func (s *Session) clientTurn(i int, at time.Duration, in game.Input) error {
	if i >= len(s.Clients) {
		return s.botTurn(i-len(s.Clients), at, in)
	}
	c := s.Clients[i]
	if err := s.Endpoints[i].Turn(at, in); err != nil {
		return fmt.Errorf("client %d: %w", i, err)
	}
	s.clientNext[i] += time.Duration(float64(s.tick) / c.Sync.Speed)
	return nil
}

// turnPosError returns what the session keeps of client i's turn, just
// taken: client 0's position error, when the turn took a server state.
func (s *Session) turnPosError(i int) (float64, bool) {
	if i != 0 {
		return 0, false
	}
	st := s.Client.Stats.StatesReceived
	if st == s.lastStates {
		return 0, false
	}
	s.lastStates = st
	return s.Client.LastError(), true
}

// notePosError records client 0's position error e, taken at time at.
func (s *Session) notePosError(at time.Duration, e float64) {
	s.PosErrors = append(s.PosErrors, e)
	sec := s.secondAt(at)
	sec.MaxError = max(sec.MaxError, e)
}

// serverTurn is one tick of the server, and of the nudges.
func (s *Session) serverTurn() error {
	if s.Config.NudgeEvery > 0 && !s.draining && s.now >= s.nextNudge {
		s.Nudge()
		s.nextNudge += s.Config.NudgeEvery
	}
	if err := s.Host.Turn(s.now); err != nil {
		return err
	}
	s.account(s.Server.Stats.BodiesSent)
	s.noteDown()
	return nil
}

// second returns the timeline's entry for now.
func (s *Session) second() *Second { return s.secondAt(s.now) }

// secondAt returns the timeline's entry for time at.
func (s *Session) secondAt(at time.Duration) *Second {
	k := int(at / time.Second)
	for len(s.Timeline) <= k {
		s.Timeline = append(s.Timeline, Second{})
	}
	return &s.Timeline[k]
}

// Second is one second of a session, for plots.
type Second struct {
	Traffic
	Corrections, Resyncs uint64
	MaxError             float64 // the largest player position error seen, m
}

// account closes the server's tick: the meter (client 0's traffic), and
// the timeline's second.
func (s *Session) account(bodies uint64) {
	e := s.Endpoints[0]
	t := e.Traffic
	e.Traffic = Traffic{}
	s.MaxUp, s.MaxDown = e.MaxUp, e.MaxDown
	t.Bodies = int(bodies - s.lastBodies)
	s.lastBodies = bodies
	sec := s.second()
	sec.add(&t)
	c := &s.Client.Stats
	sec.Corrections += c.Corrections - s.lastCorr
	sec.Resyncs += c.Resyncs - s.lastResync
	s.lastCorr, s.lastResync = c.Corrections, c.Resyncs
	s.Meter.Tick(t)
}

// Frame advances the display by dt seconds: the smoothing offset decays.
// It measures how far the displayed cube moved because of corrections.
func (s *Session) Frame(dt float64) {
	s.display.Frame(s.Client, dt)
	s.MaxDisplay = s.display.MaxMove
}

// Display returns the displayed pose of the player cube.
func (s *Session) Display() (mgl64.Vec3, mgl64.Quat) { return DisplayPose(s.Client) }
