package lab

import (
	"fmt"
	"github.com/cubelab/cube/session/summarytext"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// Local is the in-process play: a session (a server and its clients over
// netsim) run on the window's frame clock, client 0 shown, the others
// driven by autopilots (the -bots): remote players without a world
// (session.Config.Bots), or, with -full-bots, full clients.
type Local struct {
	base       session.Config
	sess       *session.Session
	bots       []*game.Autopilot // clients 1 and up, then the session's bots
	inject     uint32
	dropBodies int // -bodies for the drop scene, kept while cycling scenes
	clock      stepClock
	// wall reads a monotonic clock, for the simulation's budget per frame
	// (tests replace it).
	wall func() time.Duration
	// pace is the share of the ticks due by the wall clock that frames
	// ran: below 1 when the simulation cannot keep up.
	pace pace
	// ready prepares the shown client of each new session (the lab's
	// hooks).
	ready func(c *predict.Client)
}

// newLocal returns the in-process play of cfg; reset builds its session.
func newLocal(cfg session.Config, inject uint32) *Local {
	p := &Local{base: cfg, inject: inject}
	start := time.Now()
	p.wall = func() time.Duration { return time.Since(start) }
	if cfg.Scene == "drop" {
		p.dropBodies = cfg.Options.Bodies
	}
	return p
}

// reset builds a fresh session with the current settings.
func (p *Local) reset() error {
	s, err := session.New(p.base)
	if err != nil {
		return err
	}
	if p.inject > 0 {
		s.Client.Perturb = session.InjectNondeterminism(p.inject)
	}
	if p.ready != nil {
		p.ready(s.Client)
	}
	p.sess = s
	p.clock.dt = s.TickDuration().Seconds()
	p.pace.forget()
	p.bots = p.bots[:0]
	for i := 1; i < len(s.Clients)+len(s.Bots); i++ {
		p.bots = append(p.bots, game.NewAutopilot(s.Server.Scene(), p.base.Seed+uint64(i)*0x9e37))
	}
	return nil
}

// Client returns the shown client, the session's client 0.
func (p *Local) Client() *predict.Client { return p.sess.Client }

// Now returns the session's time.
func (p *Local) Now() time.Duration { return p.sess.Now() }

// Run runs the ticks due by the frame clock, at least one a frame and
// more while they fit the simulation's budget.
func (p *Local) Run(elapsed float64, in func() game.Input, after func()) error {
	due, dropped := p.clock.advance(elapsed)
	ran := 0
	for t0 := p.wall(); ran < due; ran++ {
		// At least one tick a frame; more while they fit the budget.
		if ran > 0 && p.wall()-t0 >= simBudget {
			break // the rest is dropped: slow motion, not a frozen window
		}
		if err := p.tick(in(), after); err != nil {
			return err
		}
	}
	p.pace.add(elapsed, ran, dropped+float64(due-ran))
	return nil
}

// simBudget is the wall-clock time a frame may spend simulating. Beyond
// it the ticks due are dropped and the session runs slower than real time
// (the HUD says how much), so that the window keeps answering the keys and
// the mouse: several clients in one process each rewinding a 901-body
// world can cost tens of milliseconds a tick.
const simBudget = 40 * time.Millisecond

// tick runs one session tick, the shown client with input in, the bots
// with their autopilots'.
func (p *Local) tick(in game.Input, after func()) error {
	s := p.sess
	err := s.Advance(s.Now()+s.TickDuration(), func(i int) game.Input {
		if i == 0 {
			return in
		}
		if k := i - len(s.Clients); k >= 0 {
			return s.BotInput(k, p.bots[i-1])
		}
		c := s.Clients[i]
		return p.bots[i-1].Input(c.World().Body(c.Body()))
	})
	if err != nil {
		return err
	}
	after()
	return nil
}

// Frame moves the session's display on.
func (p *Local) Frame(elapsed float64) { p.sess.Frame(elapsed) }

// Display returns the displayed pose of the shown client's cube.
func (p *Local) Display() (mgl64.Vec3, mgl64.Quat) { return p.sess.Display() }

// Rates returns the session's meter.
func (p *Local) Rates() session.Rates { return p.sess.Meter.Rates() }

// SetPreset sets every client's link, both ways, and keeps it for resets.
func (p *Local) SetPreset(n netsim.Preset) error {
	p.base.Preset, p.base.Conditions = n.Name, n.Conditions
	return p.sess.SetConditions(n.Name, n.Conditions)
}

// Status returns the HUD's lines on the session's link and scene.
func (p *Local) Status(compact bool) []string {
	s := p.sess
	c := s.Client
	cond := s.Config.Conditions
	bots := ""
	if n := len(s.Clients) - 1; n > 0 {
		bots = fmt.Sprintf("  %d full bots", n)
	} else if n := len(s.Bots); n > 0 {
		bots = fmt.Sprintf("  %d bots", n)
	}
	if compact {
		return []string{fmt.Sprintf("%s  RTT %v  loss %.1f%%", s.Config.Preset, (2 * cond.Latency).Round(time.Millisecond), 100*cond.Loss),
			fmt.Sprintf("scene %s  %s", c.Scene().Name, summarytext.SyncName(c.Config.Mode)) + bots}
	}
	return []string{
		fmt.Sprintf("%s  one-way %v ±%v  loss %.1f%%  RTT %v", s.Config.Preset, cond.Latency, cond.Jitter, 100*cond.Loss, 2*cond.Latency),
		fmt.Sprintf("scene %s, %d bodies  %s  %d Hz", s.Config.Scene, c.World().NumBodies(), summarytext.SyncName(c.Config.Mode), s.Config.SnapshotHz) + bots}
}

// Late returns the shown client's late inputs as the server counts them.
func (p *Local) Late() uint64 {
	if ps, ok := p.sess.Server.PlayerStats(p.sess.Client.Slot()); ok {
		return ps.Late
	}
	return 0
}

// Rejected returns the messages the client and the server rejected.
func (p *Local) Rejected() string {
	return fmt.Sprintf("rejected: client %d  server %d", p.sess.Client.Stats.Rejected.Total(), p.sess.Server.Stats.Rejected.Total())
}

// ServerCube returns the server's state of body i.
func (p *Local) ServerCube(i int) (physics.BodyState, bool) {
	return p.sess.Server.World().Body(i), true
}

// Speed returns the pace of the simulation against the wall clock.
func (p *Local) Speed() (recent, total float64, ok bool) {
	return p.pace.recent(), p.pace.total(), true
}

// Lost returns nil: a session in process is never lost.
func (p *Local) Lost() error { return nil }
