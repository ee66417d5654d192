package lab

import (
	"fmt"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// GraphSeconds is how much history the graph shows.
const GraphSeconds = 10

// Mark says what the client did with a state it received.
type Mark uint8

const (
	MarkNone       Mark = iota // the prediction matched, or was left alone
	MarkCorrection             // a visible correction: rewind and replay, smoothed
	MarkResync                 // a quiet resync: rewind and replay below the thresholds
)

// Sample is one graph point, taken at each state received.
type Sample struct {
	T        float64 // seconds on the shown client's clock
	Err      float64 // the client's last prediction error, metres
	Mark     Mark
	InFlight float64 // inputs in flight
	DownKbps float64 // received over the last second
}

// Lab is the demo's state without any OpenGL: the play it shows, the
// toggles, the graph history and the HUD text. The window drives it.
type Lab struct {
	play      Play
	local     *Local          // the play in process; nil against a remote server
	pilot     *game.Autopilot // nil: the keyboard drives
	autopilot bool
	seed      uint64 // the autopilot's
	syncTest  int    // the sync test's span T turns on (-synctest, or defaultSyncTest)
	// Paused stops the simulation in process (P); frames still draw.
	Paused bool
	// ShowHelp shows the key table over the scene (F1 or H).
	ShowHelp bool
	// Show says which ghosts of the player's cube the window draws.
	Show struct{ Server, Snapshot, Predicted bool }

	// Samples are the graph's points, the last GraphSeconds of them.
	Samples     []Sample
	corrections []float64 // times of recent corrections, for the rate
	replays     replayRate
	lastStates  uint64
	lastFixes   [2]uint64 // client's corrections and resyncs at the last sample
	// Desync is the first nondeterminism found, for the banner.
	Desync string
	// DesyncFound writes the report of a desync and returns its path, or "".
	DesyncFound func(m *predict.Misprediction) string
	frameTime   float64 // seconds, smoothed
	keys        game.Input
	// OnReset is called before the session in process is rebuilt.
	OnReset func()
	// Note is a message for the HUD (a screenshot written or not).
	Note     string
	noteLeft float64 // seconds the note stays
	// HideOverlay hides the HUD and the graph (Tab).
	HideOverlay bool
	// CameraReset asks the window to put the camera back to its default
	// place (the reset-camera key, a new scene); the window clears it.
	CameraReset bool
	// Compact is set for a small window: the short HUD (SetWindowSize).
	Compact bool
	// Debug is the debug drawing: its layers (F2 to F8) and their views.
	Debug Debug
}

// noteSeconds is how long a note stays on the HUD.
const noteSeconds = 4

// Say shows msg on the HUD for a few seconds.
func (l *Lab) Say(msg string) { l.Note, l.noteLeft = msg, noteSeconds }

// New starts a session in process; autopilot drives the cube instead of
// the keys; inject, when not 0, perturbs the client every inject ticks.
func New(cfg session.Config, autopilot bool, inject uint32) (*Lab, error) {
	p := newLocal(cfg, inject)
	l := &Lab{play: p, local: p, autopilot: autopilot, seed: cfg.Seed, syncTest: cfg.Client.SyncTest}
	p.ready = l.ready
	l.Show.Server, l.Show.Snapshot = true, true
	if err := l.reset(); err != nil {
		return nil, err
	}
	return l, nil
}

// NewRemote shows the client of r, which plays against a server over
// a network; autopilot drives the cube instead of the keys.
func NewRemote(r *Remote, autopilot bool, inject uint32, seed uint64) *Lab {
	l := &Lab{play: r, autopilot: autopilot, seed: seed}
	l.Show.Snapshot = true
	c := r.Client()
	l.syncTest = c.Config.SyncTest
	if inject > 0 {
		c.Perturb = session.InjectNondeterminism(inject)
	}
	l.ready(c)
	l.newPilot()
	return l
}

// ready prepares a shown client: the lab hears of its mispredictions, it
// keeps its states for the sync test, and times its rewinds.
func (l *Lab) ready(c *predict.Client) {
	c.OnMispredict = l.onMispredict
	c.KeepStates = true
	c.Wall = wallClock()
}

// newPilot gives the shown client a fresh autopilot if one drives: a
// reset replays the same run.
func (l *Lab) newPilot() {
	l.pilot = nil
	if l.autopilot {
		l.pilot = game.NewAutopilot(l.play.Client().Scene(), l.seed)
	}
}

// defaultSyncTest is the span T's sync test rewinds when -synctest did not
// set one.
const defaultSyncTest = 8

// syncTestState says whether the sync test runs, and its span and
// findings.
func syncTestState(c *predict.Client) string {
	if c.Config.SyncTest == 0 {
		return "off"
	}
	return fmt.Sprintf("%d ticks  %d tested  %d differ", c.Config.SyncTest, c.Stats.SyncTests, c.Stats.SyncTestFailures)
}

// wallClock returns the time since it was called, from the monotonic
// clock: for a client to time its rewinds.
func wallClock() func() time.Duration {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

// Client returns the client the window shows.
func (l *Lab) Client() *predict.Client { return l.play.Client() }

// Now returns the time of the shown client's clock.
func (l *Lab) Now() time.Duration { return l.play.Now() }

// InPlay reports whether the players' cubes are in play, to draw and to
// frame: always in process; against a remote server once this client has
// joined. Before (and for a client the server refused) the world's player
// slots are the scene's, not players: none of them joined.
func (l *Lab) InPlay() bool {
	r, ok := l.play.(*Remote)
	return !ok || r.ep.Client.Joined()
}

// Session returns the session in process, or nil against a remote server.
func (l *Lab) Session() *session.Session {
	if l.local == nil {
		return nil
	}
	return l.local.sess
}

// Lost returns what ended the connection to a remote server, or nil.
func (l *Lab) Lost() error { return l.play.Lost() }

// ServerCube returns the server's state of body i, and false when the
// server is not in this process.
func (l *Lab) ServerCube(i int) (physics.BodyState, bool) { return l.play.ServerCube(i) }

// reset builds a fresh session with the current settings.
func (l *Lab) reset() error {
	if l.OnReset != nil && l.local.sess != nil {
		l.OnReset()
	}
	if err := l.local.reset(); err != nil {
		return err
	}
	l.Samples, l.corrections, l.lastStates, l.lastFixes, l.Desync = l.Samples[:0], l.corrections[:0], 0, [2]uint64{}, ""
	l.replays.reset()
	l.newPilot()
	return nil
}

// nextScene returns the scene after name in game.Names(), wrapping around.
func nextScene(name string) string {
	names := game.Names()
	for i, n := range names {
		if n == name {
			return names[(i+1)%len(names)]
		}
	}
	return names[0]
}

func (l *Lab) onMispredict(m *predict.Misprediction) {
	if (m.Kind == predict.KindNondeterminism || m.Kind == predict.KindRewind) && l.Desync == "" {
		l.Desync = fmt.Sprintf("DESYNC at tick %d\nnondeterminism between ticks %d and %d: same state, same inputs, other bits", m.Tick, m.From, m.Tick)
		if m.Kind == predict.KindRewind {
			l.Desync = fmt.Sprintf("DESYNC at tick %d\nrewind: replaying ticks %d to %d gave other bits than predicting them", m.Tick, m.From, m.Tick)
		}
		if l.DesyncFound != nil {
			if report := l.DesyncFound(m); report != "" {
				l.Desync += "; report in " + report
			}
		}
	}
}

// SetKeys sets the input held this frame (the window calls it). E pressed
// in a scene without a pull says so instead of doing nothing silently.
func (l *Lab) SetKeys(in game.Input) {
	if in&game.Pull != 0 && l.keys&game.Pull == 0 && l.Client().Scene().Rules.PullRadius == 0 {
		l.Say("E (pull): only the cubes scene pulls; N: next scene")
	}
	l.keys = in
}

// Frame advances the lab by elapsed wall-clock seconds: the ticks due
// (none while paused), then the display.
func (l *Lab) Frame(elapsed float64) error {
	if l.frameTime == 0 {
		l.frameTime = elapsed
	} else {
		l.frameTime = 0.9*l.frameTime + 0.1*elapsed
	}
	if l.noteLeft -= elapsed; l.noteLeft <= 0 {
		l.Note = ""
	}
	if !l.Paused {
		if err := l.play.Run(elapsed, l.input, l.sample); err != nil {
			return err
		}
	}
	l.play.Frame(elapsed)
	l.Debug.update(l.Client(), elapsed)
	return nil
}

// input returns the shown client's input for its next tick: the
// autopilot's or the keys held.
func (l *Lab) input() game.Input {
	if l.pilot != nil {
		c := l.Client()
		return l.pilot.Input(c.World().Body(c.Body()))
	}
	return l.keys
}

// Display returns the displayed pose of the shown client's cube.
func (l *Lab) Display() (mgl64.Vec3, mgl64.Quat) { return l.play.Display() }

// Tick runs one tick of the session in process with the keyboard's or the
// autopilot's input; against a remote server the client keeps its own
// pace and Tick does nothing.
func (l *Lab) Tick(keys game.Input) error {
	l.keys = keys
	if l.local == nil {
		return nil
	}
	return l.local.tick(l.input(), l.sample)
}

// sample takes what the shown client did in its last tick for the graph.
func (l *Lab) sample() {
	c := l.Client()
	now := l.Now().Seconds()
	if c.Stats.StatesReceived != l.lastStates {
		l.lastStates = c.Stats.StatesReceived
		// What the client did with the states of this tick, from its
		// counters: a correction shows over a quiet resync.
		m := MarkNone
		switch {
		case c.Stats.Corrections != l.lastFixes[0]:
			m = MarkCorrection
			l.corrections = append(l.corrections, now)
		case c.Stats.Resyncs != l.lastFixes[1]:
			m = MarkResync
		}
		l.lastFixes = [2]uint64{c.Stats.Corrections, c.Stats.Resyncs}
		l.Samples = append(l.Samples, Sample{T: now, Err: c.LastError(), Mark: m, InFlight: float64(c.InFlight()), DownKbps: l.play.Rates().DownKbps})
	}
	l.replays.add(now, &c.Stats)
	l.Samples = trimSamples(l.Samples, now-GraphSeconds)
	for len(l.corrections) > 0 && l.corrections[0] < now-1 {
		l.corrections = l.corrections[1:]
	}
}

// trimSamples drops samples older than since, reusing the slice.
func trimSamples(s []Sample, since float64) []Sample {
	k := 0
	for k < len(s) && s[k].T < since {
		k++
	}
	if k == 0 {
		return s
	}
	return append(s[:0], s[k:]...)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// StopAutopilot hands the shown client's cube to the keys.
func (l *Lab) StopAutopilot() { l.pilot = nil }
