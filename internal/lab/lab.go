package lab

import (
	"fmt"
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// Action is something a key does in the window.
type Action int

const (
	ActNone Action = iota
	ActPreset1
	ActPreset2
	ActPreset3
	ActPreset4
	ActPreset5
	ActPreset6
	ActPreset7
	ActSlower
	ActFaster
	ActCorrections
	ActSmoothing
	ActRedundancy
	ActSyncTest
	ActServerCube
	ActSnapshotCube
	ActPredictedCube
	ActNudge
	ActPause
	ActStep
	ActReset
	ActNextScene
	ActSyncMode
	ActResetCamera
	ActOverlay
	ActScreenshot
	ActHelp
	ActQuit
)

// KeyHelp is the key table: the help overlay, `cube window -h` and the
// README show it. Movement keys are held, the others act once per press.
// Keys marked "in process" act on the server or the session in this
// process; a window that plays against a remote server (-connect) says so
// on the HUD instead, and its preset keys set its own link's conditions.
// Each key has its description (what) and a shorter one (short) for the
// help overlay of small windows.
var KeyHelp = []struct{ Key, What, Short string }{
	{"W A S D", "push the cube (-Z -X +Z +X: world axes)", "push the cube"},
	{"Space", "jump, when standing on something", "jump"},
	{"E", "pull the cubes nearby in (cubes scene)", "pull cubes"},
	{"1 to 7", "preset: perfect lan good average bad terrible outage", "network preset"},
	{"[ ]", "halve or double the snapshot rate, 1 to 64 Hz (in process)", "snapshot rate"},
	{"C", "corrections on/off", "corrections"},
	{"M", "smoothing on/off", "smoothing"},
	{"R", "redundant inputs on/off", "redundancy"},
	{"T", "sync test on/off: after every tick, rewind 8 ticks (or -synctest N), replay them in full and partially, and compare the bits", "sync test"},
	{"Y", "server's cube (yellow) on/off (in process)", "server cube"},
	{"B", "last snapshot's cube (blue) on/off", "snapshot cube"},
	{"V", "raw predicted cube (wireframe) on/off", "predicted cube"},
	{"K", "nudge the server's cube, a server-only event (in process)", "nudge"},
	{"N", "next scene: arena, cubes, pyramid, stack, drop (in process)", "next scene"},
	{"I", "sync mode: state (the server sends bodies) or inputs (it sends inputs); the session restarts (in process)", "sync mode"},
	{"P", "pause (in process)", "pause"},
	{".", "step one tick while paused (in process)", "step"},
	{"Backspace", "reset the session (in process)", "reset"},
	{"Home", "reset the camera", "reset camera"},
	{"Tab", "hide or show the HUD and the graph", "HUD and graph"},
	{"F12", "screenshot to cube-DATE-TIME-MS.png", "screenshot"},
	{"F1 or H", "this help", "help"},
	{"Esc", "quit", "quit"},
	{"mouse drag", "orbit the camera around the cube", "orbit camera"},
	{"wheel", "zoom in and out", "zoom"},
}

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

// Lab is the demo's state without any OpenGL: the session, the toggles,
// the graph history and the HUD text. The window drives it.
type Lab struct {
	base       session.Config
	Sess       *session.Session  // in process; nil when remote
	Remote     *Remote           // against a server over a network; nil in process
	pilot      *game.Autopilot   // nil: the keyboard drives
	bots       []*game.Autopilot // in process: clients 1 and up, the -bots
	autopilot  bool
	dropBodies int // -bodies for the drop scene, kept while cycling scenes
	inject     uint32
	syncTest   int // the sync test's span T turns on (-synctest, or defaultSyncTest)
	clock      stepClock
	// wall reads a monotonic clock, for the simulation's budget per frame
	// (tests replace it).
	wall func() time.Duration
	// pace is the share of the ticks due by the wall clock that frames
	// ran: below 1 when the simulation cannot keep up.
	pace     pace
	Paused   bool
	ShowHelp bool
	// Show says which ghosts of the player's cube the window draws.
	Show struct{ Server, Snapshot, Predicted bool }

	Samples     []Sample
	corrections []float64 // times of recent corrections, for the rate
	lastStates  uint64
	lastFixes   [2]uint64                             // client's corrections and resyncs at the last sample
	Desync      string                                // first nondeterminism, for the banner
	DesyncFound func(m *predict.Misprediction) string // writes the report, returns its path or ""
	frameTime   float64                               // seconds, smoothed
	keys        game.Input
	OnReset     func()  // called before the session is rebuilt
	Note        string  // a message for the HUD (a screenshot written or not)
	noteLeft    float64 // seconds the note stays
	HideOverlay bool    // HUD and graph hidden (Tab)
	// cameraReset asks the window to put the camera back to its default
	// place (the reset-camera key, a new scene); the window clears it.
	CameraReset bool
	Compact     bool // a small window: the short HUD (setWindowSize)
}

// noteSeconds is how long a note stays on the HUD.
const noteSeconds = 4

// say shows msg on the HUD for a few seconds.
func (l *Lab) Say(msg string) { l.Note, l.noteLeft = msg, noteSeconds }

// New starts a session; autopilot drives the cube instead of the keys.
func New(cfg session.Config, autopilot bool, inject uint32) (*Lab, error) {
	l := &Lab{base: cfg, inject: inject, autopilot: autopilot, syncTest: cfg.Client.SyncTest}
	start := time.Now()
	l.wall = func() time.Duration { return time.Since(start) }
	if cfg.Scene == "drop" {
		l.dropBodies = cfg.Options.Bodies
	}
	l.Show.Server, l.Show.Snapshot = true, true
	if err := l.reset(); err != nil {
		return nil, err
	}
	return l, nil
}

// NewRemote shows the client of r, which plays against a server over
// a network; autopilot drives the cube instead of the keys.
func NewRemote(r *Remote, autopilot bool, inject uint32, seed uint64) *Lab {
	l := &Lab{Remote: r, autopilot: autopilot, inject: inject}
	l.Show.Snapshot = true
	c := r.ep.Client
	l.syncTest = c.Config.SyncTest
	if inject > 0 {
		c.Perturb = session.InjectNondeterminism(inject)
	}
	c.OnMispredict = l.onMispredict
	c.KeepStates = true
	c.Wall = wallClock()
	if autopilot {
		l.pilot = game.NewAutopilot(c.Scene(), seed)
	}
	return l
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

// client returns the client the window shows.
func (l *Lab) Client() *predict.Client {
	if l.Remote != nil {
		return l.Remote.ep.Client
	}
	return l.Sess.Client
}

// now returns the time of the shown client's clock.
func (l *Lab) Now() time.Duration {
	if l.Remote != nil {
		return l.Remote.at
	}
	return l.Sess.Now()
}

// inProcessKeys are the actions on the server or the session in this
// process, which a window playing against a remote server cannot do, with
// the name its note gives them.
var inProcessKeys = map[Action]string{
	ActSlower: "[ ] (snapshot rate)", ActFaster: "[ ] (snapshot rate)", ActNudge: "K (nudge)", ActNextScene: "N (next scene)", ActSyncMode: "I (sync mode)",
	ActReset: "Backspace (reset)", ActPause: "P (pause)", ActStep: ". (step)", ActServerCube: "Y (server cube)",
}

// reset builds a fresh session with the current settings.
func (l *Lab) reset() error {
	if l.OnReset != nil && l.Sess != nil {
		l.OnReset()
	}
	s, err := session.New(l.base)
	if err != nil {
		return err
	}
	if l.inject > 0 {
		s.Client.Perturb = session.InjectNondeterminism(l.inject)
	}
	s.Client.OnMispredict = l.onMispredict
	s.Client.KeepStates = true
	s.Client.Wall = wallClock()
	l.Sess, l.Samples, l.corrections, l.lastStates, l.lastFixes, l.Desync = s, l.Samples[:0], l.corrections[:0], 0, [2]uint64{}, ""
	l.clock.dt = s.TickDuration().Seconds()
	l.pace.forget()
	l.pilot = nil
	if l.autopilot {
		// A fresh autopilot for the scene: a reset replays the same run.
		l.pilot = game.NewAutopilot(s.Client.Scene(), l.base.Seed)
	}
	l.bots = l.bots[:0]
	for i, c := range s.Clients[1:] {
		l.bots = append(l.bots, game.NewAutopilot(c.Scene(), l.base.Seed+uint64(i+1)*0x9e37))
	}
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

// act performs a key's Action. It returns an error only for a session that
// cannot be rebuilt.
func (l *Lab) Act(a Action) error {
	c := l.Client()
	switch {
	case a >= ActPreset1 && a <= ActPreset7:
		p, err := netsim.PresetByKey(int(a-ActPreset1) + 1)
		if err != nil {
			return err
		}
		if l.Remote != nil {
			return l.Remote.setPreset(p) // this client's own link
		}
		l.base.Preset, l.base.Conditions = p.Name, p.Conditions
		return l.Sess.SetConditions(p.Name, p.Conditions)
	}
	if what, ok := inProcessKeys[a]; ok && l.Remote != nil {
		l.Say(what + ": in process only; the server at " + l.Remote.Addr + " is remote")
		return nil
	}
	switch a {
	case ActSlower, ActFaster:
		hz := l.Sess.Config.SnapshotHz
		if a == ActSlower && hz > 1 {
			hz /= 2
		} else if a == ActFaster && hz < 64 {
			hz *= 2
		}
		l.base.SnapshotHz = hz
		return l.Sess.SetSnapshotRate(hz)
	case ActCorrections:
		c.Config.Corrections = !c.Config.Corrections
		l.base.Client.Corrections = c.Config.Corrections
	case ActSmoothing:
		c.Smooth.Enabled = !c.Smooth.Enabled
		c.Smooth.Reset()
		l.base.Smoothing = c.Smooth.Enabled
	case ActRedundancy:
		c.Config.Redundancy = !c.Config.Redundancy
		l.base.Client.Redundancy = c.Config.Redundancy
	case ActSyncTest:
		if c.Config.SyncTest > 0 {
			c.Config.SyncTest = 0
		} else {
			c.Config.SyncTest = max(l.syncTest, defaultSyncTest)
		}
		l.base.Client.SyncTest = c.Config.SyncTest
	case ActServerCube:
		l.Show.Server = !l.Show.Server
	case ActSnapshotCube:
		l.Show.Snapshot = !l.Show.Snapshot
	case ActPredictedCube:
		l.Show.Predicted = !l.Show.Predicted
	case ActNudge:
		l.Sess.Nudge()
	case ActPause:
		l.Paused = !l.Paused
	case ActStep:
		if l.Paused {
			return l.Tick(l.keys)
		}
	case ActReset:
		return l.reset()
	case ActNextScene:
		l.base.Scene = nextScene(l.base.Scene)
		l.base.Options = game.Options{Players: l.base.Options.Players, Quantize: l.base.Options.Quantize}
		if l.base.Scene == "drop" {
			l.base.Options.Bodies = l.dropBodies
		}
		l.CameraReset = true
		return l.reset()
	case ActSyncMode:
		if l.base.Client.Mode == predict.StateSync {
			l.base.Client.Mode = predict.InputSync
		} else {
			l.base.Client.Mode = predict.StateSync
		}
		l.Say(SyncName(l.base.Client.Mode) + ": the session restarts")
		return l.reset()
	case ActResetCamera:
		l.CameraReset = true
	case ActOverlay:
		l.HideOverlay = !l.HideOverlay
	case ActHelp:
		l.ShowHelp = !l.ShowHelp
	}
	return nil
}

// setKeys sets the input held this frame (the window calls it). E pressed
// in a scene without a pull says so instead of doing nothing silently.
func (l *Lab) SetKeys(in game.Input) {
	if in&game.Pull != 0 && l.keys&game.Pull == 0 && l.Client().Scene().Rules.PullRadius == 0 {
		l.Say("E (pull): only the cubes scene pulls; N: next scene")
	}
	l.keys = in
}

// frame advances the lab by elapsed wall-clock seconds: whole ticks through
// the clock (none while paused), then the display.
func (l *Lab) Frame(elapsed float64) error {
	if l.frameTime == 0 {
		l.frameTime = elapsed
	} else {
		l.frameTime = 0.9*l.frameTime + 0.1*elapsed
	}
	if l.noteLeft -= elapsed; l.noteLeft <= 0 {
		l.Note = ""
	}
	if l.Remote != nil {
		l.Remote.advance(elapsed, l.input, l.sample)
		l.Client().Smooth.Update(elapsed)
		return nil
	}
	if !l.Paused {
		due, dropped := l.clock.advance(elapsed)
		ran := 0
		for t0 := l.wall(); ran < due; ran++ {
			// At least one tick a frame; more while they fit the budget.
			if ran > 0 && l.wall()-t0 >= simBudget {
				break // the rest is dropped: slow motion, not a frozen window
			}
			if err := l.Tick(l.keys); err != nil {
				return err
			}
		}
		l.pace.add(elapsed, ran, dropped+float64(due-ran))
	}
	l.Sess.Frame(elapsed)
	return nil
}

// simBudget is the wall-clock time a frame may spend simulating. Beyond
// it the ticks due are dropped and the session runs slower than real time
// (the HUD says how much), so that the window keeps answering the keys and
// the mouse: several clients in one process each rewinding a 901-body
// world can cost tens of milliseconds a tick.
const simBudget = 40 * time.Millisecond

// input returns the shown client's input for its next tick: the
// autopilot's or the keys held.
func (l *Lab) input() game.Input {
	if l.pilot != nil {
		c := l.Client()
		return l.pilot.Input(c.World().Body(c.Body()))
	}
	return l.keys
}

// display returns the displayed pose of the shown client's cube.
func (l *Lab) Display() (mgl64.Vec3, mgl64.Quat) {
	if l.Remote == nil {
		return l.Sess.Display()
	}
	c := l.Client()
	b := c.World().Body(c.Body())
	return c.Smooth.Display(b.Pos, b.Rot)
}

// tick runs one session tick with the keyboard's or the autopilot's input.
func (l *Lab) Tick(keys game.Input) error {
	l.keys = keys
	in := l.input()
	s := l.Sess
	err := s.Advance(s.Now()+s.TickDuration(), func(i int) game.Input {
		if i == 0 {
			return in
		}
		c := s.Clients[i]
		return l.bots[i-1].Input(c.World().Body(c.Body()))
	})
	if err != nil {
		return err
	}
	l.sample()
	return nil
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
		l.Samples = append(l.Samples, Sample{T: now, Err: c.LastError(), Mark: m, InFlight: float64(c.InFlight()), DownKbps: l.rates().DownKbps})
	}
	l.Samples = trimSamples(l.Samples, now-GraphSeconds)
	for len(l.corrections) > 0 && l.corrections[0] < now-1 {
		l.corrections = l.corrections[1:]
	}
}

// rates returns the traffic of the shown client over the last second.
func (l *Lab) rates() session.Rates {
	if l.Remote != nil {
		return l.Remote.rates.rates()
	}
	return l.Sess.Meter.Rates()
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

// hud returns the status lines. Items within a line are separated by two
// spaces; the window wraps lines between items, never inside one.
func (l *Lab) HUD() []string {
	if l.Compact {
		return l.compactHUD()
	}
	c := l.Client()
	newest, have := c.Newest()
	ack := "none"
	if have {
		ack = fmt.Sprint(newest)
	}
	off, _ := c.Smooth.Offset()
	last := c.Last()
	fps := 0.0
	if l.frameTime > 0 {
		fps = 1 / l.frameTime
	}
	st := c.Stats
	state := "running"
	switch {
	case l.Paused:
		state = "PAUSED"
	case l.Remote == nil && l.pace.recent() < 0.95:
		state = fmt.Sprintf("running at %.0f%% speed", 100*l.pace.recent())
	}
	driver := "keyboard"
	if l.pilot != nil {
		driver = "autopilot"
	}
	mis := st.Mispredicted
	var lines []string
	var rates session.Rates
	var rejected, server string
	if r := l.Remote; r != nil {
		cond := r.preset.Conditions
		slot := "joining"
		if c.Joined() {
			slot = fmt.Sprintf("slot %d", c.Slot())
		}
		lines = append(lines,
			fmt.Sprintf("server %s  %s  %s", r.Addr, slot, JoinRoundTrip(c.Sync.RTT, tick.Duration(c.World().Config()))),
			fmt.Sprintf("%s on this link  one-way %v ±%v  loss %.1f%%", r.preset.Name, cond.Latency, cond.Jitter, 100*cond.Loss),
			fmt.Sprintf("scene %s, %d bodies, %d slots  %s", c.Scene().Name, c.World().NumBodies(), len(c.Scene().Players), SyncName(c.Config.Mode)))
		rates = r.rates.rates()
		rejected = fmt.Sprintf("rejected: client %d", st.Rejected.Total())
		server = "remote"
	} else {
		s := l.Sess
		cond := s.Config.Conditions
		lines = append(lines,
			fmt.Sprintf("%s  one-way %v ±%v  loss %.1f%%  RTT %v", s.Config.Preset, cond.Latency, cond.Jitter, 100*cond.Loss, 2*cond.Latency),
			fmt.Sprintf("scene %s, %d bodies  %s  %d Hz", s.Config.Scene, c.World().NumBodies(), SyncName(c.Config.Mode), s.Config.SnapshotHz))
		if n := len(s.Clients); n > 1 {
			lines[1] += fmt.Sprintf("  %d bots", n-1)
		}
		rates = s.Meter.Rates()
		rejected = fmt.Sprintf("rejected: client %d  server %d", st.Rejected.Total(), s.Server.Stats.Rejected.Total())
		server = onOff(l.Show.Server)
	}
	late := uint64(0)
	if l.Remote != nil {
		late = l.Remote.ep.Buffer.Late // as the server's messages tell it
	} else if ps, ok := l.Sess.Server.PlayerStats(c.Slot()); ok {
		late = ps.Late
	}
	lines = append(lines,
		fmt.Sprintf("tick %d  acked %s  in flight %d", c.Tick(), ack, c.InFlight()),
		fmt.Sprintf("lead %d  buffer %d (aim %.1f)  late %d", int32(c.Tick()-newest), c.Sync.Last, c.Sync.Target, late),
		fmt.Sprintf("corrections %d (%d/s)  resyncs %d  offset %.2f m", st.Corrections, len(l.corrections), st.Resyncs, off.Len()),
		fmt.Sprintf("last rewind: %d ticks replayed  %d of %d bodies  %.1f ms  error %.3f m  jump %.3f m", last.Replayed, st.LastReplay, c.World().NumBodies(),
			float64(st.LastReplayTime.Microseconds())/1000, math.Sqrt(last.Error.Pos2), last.Jump),
		fmt.Sprintf("mispredicted: input %d  server %d  remote %d  unverified %d  nondeterminism %d",
			mis[predict.KindInput], mis[predict.KindServer], mis[predict.KindRemote], mis[predict.KindUnverified], mis[predict.KindNondeterminism]+mis[predict.KindRewind]),
		rejected,
		fmt.Sprintf("last second: up %.1f kbit/s %.0f B/pkt  down %.1f kbit/s %.0f B/pkt %.1f bodies",
			rates.UpKbps, rates.UpBytesPerPacket, rates.DownKbps, rates.DownBytesPerPacket, rates.BodiesPerPacket),
		fmt.Sprintf("frame %.1f ms  %.0f fps  %s  %s", 1000*l.frameTime, fps, state, driver),
		fmt.Sprintf("C corrections %s  M smoothing %s  R redundancy %s  T sync test %s", onOff(c.Config.Corrections), onOff(c.Smooth.Enabled), onOff(c.Config.Redundancy), syncTestState(c)),
		fmt.Sprintf("Y server %s  B snapshot %s  V predicted %s", server, onOff(l.Show.Snapshot), onOff(l.Show.Predicted)),
	)
	if l.Remote != nil && l.Remote.lost != nil {
		lines = append(lines, "connection ended (the banner says why)  Esc: quit")
	} else if l.Remote != nil {
		lines = append(lines, "F1 or H: help  Tab: hide this")
	} else {
		lines = append(lines, "F1 or H: help  Tab: hide this  N: next scene")
	}
	if l.Note != "" {
		lines = append(lines, l.Note)
	}
	return lines
}

// HelpLines returns the help overlay's lines: a heading, then the key
// table as "key\tdescription\tshort description" lines.
func HelpLines() []string {
	out := []string{"Keys and mouse (F1 or H closes this help)"}
	for _, k := range KeyHelp {
		out = append(out, k.Key+"\t"+k.What+"\t"+k.Short)
	}
	return out
}

// StopAutopilot hands the shown client's cube to the keys.
func (l *Lab) StopAutopilot() { l.pilot = nil }
