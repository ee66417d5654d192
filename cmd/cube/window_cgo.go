//go:build cgo

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/cubelab/cube/internal/lab"
	"github.com/cubelab/cube/transport"
	"io"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/render"
)

// keyActions maps a pressed key to its lab.Action.
var keyActions = map[render.Key]lab.Action{
	render.Key1: lab.ActPreset1, render.Key2: lab.ActPreset2, render.Key3: lab.ActPreset3, render.Key4: lab.ActPreset4,
	render.Key5: lab.ActPreset5, render.Key6: lab.ActPreset6, render.Key7: lab.ActPreset7,
	render.KeyLeftBracket: lab.ActSlower, render.KeyRightBracket: lab.ActFaster,
	render.KeyC: lab.ActCorrections, render.KeyM: lab.ActSmoothing, render.KeyR: lab.ActRedundancy, render.KeyT: lab.ActSyncTest,
	render.KeyY: lab.ActServerCube, render.KeyB: lab.ActSnapshotCube, render.KeyV: lab.ActPredictedCube,
	render.KeyK: lab.ActNudge, render.KeyP: lab.ActPause, render.KeyPeriod: lab.ActStep,
	render.KeyBackspace: lab.ActReset, render.KeyF12: lab.ActScreenshot,
	render.KeyN: lab.ActNextScene, render.KeyI: lab.ActSyncMode, render.KeyHome: lab.ActResetCamera, render.KeyTab: lab.ActOverlay,
	render.KeyF1: lab.ActHelp, render.KeyH: lab.ActHelp, render.KeyEscape: lab.ActQuit,
}

// moveKeys are the keys held for movement, with their input bits.
var moveKeys = []struct {
	key render.Key
	bit game.Input
}{
	{render.KeyW, game.Forward}, {render.KeyA, game.Left}, {render.KeyS, game.Back},
	{render.KeyD, game.Right}, {render.KeySpace, game.Jump}, {render.KeyE, game.Pull},
}

// heldInput reads the movement keys.
func heldInput(w *render.Window) game.Input {
	var in game.Input
	for _, k := range moveKeys {
		if w.Held(k.key) {
			in |= k.bit
		}
	}
	return in
}

func runWindow(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("window", "[window] [-scene NAME] [-bodies N] [-bots N] [-sync state|inputs] [-quantize] [-budget-kbps K] [-preset NAME] [-snapshot-hz H] [-seed N] [-input-driven [-missing skip|repeat]] [-no-redundancy] [-no-corrections] [-no-smoothing] [-full-replay] [-synctest N] [-start-tick T] [-workers N] [-width W] [-height H] [-autopilot] [-paused] [-frames N] [-screenshot FILE.png] [-record FILE [-full-every N]] [-inject-nondeterminism N] [-report-dir DIR] | [window] -connect ADDR (-pin PIN | -insecure) [-max-players N] [the scene, client and window flags]", stderr)
	wf := registerWindowFlags(fs)
	if err := fs.parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printKeys(stderr)
		}
		return err
	}
	wf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { wf.set[f.Name] = true })
	cfg, err := wf.check()
	if err != nil {
		return err
	}
	var l *lab.Lab
	title := "cube: client-side prediction lab"
	if wf.remote() {
		r, err := dialWindow(wf, stderr)
		if err != nil {
			return err
		}
		defer r.Close()
		l = lab.NewRemote(r, wf.autopilot, uint32(wf.inject), wf.session.seed)
		title += ", playing against " + r.Addr
	} else if l, err = lab.New(cfg, wf.autopilot, uint32(wf.inject)); err != nil {
		return err
	}
	l.Paused = wf.paused
	var rec *recording
	if wf.record.path != "" {
		if rec, err = startRecording(wf.record.path, uint32(wf.record.fullEvery), l.Session()); err != nil {
			return err
		}
		l.OnReset = func() {
			if err := rec.close(); err != nil {
				fmt.Fprintf(stderr, "cube: record %s: %v\n", wf.record.path, err)
			}
			fmt.Fprintf(stdout, "record %s ended at the reset\n", wf.record.path)
			rec, l.OnReset = nil, nil
		}
		defer func() {
			if rec == nil {
				return // ended at a reset, and said so
			}
			if err := rec.close(); err != nil {
				fmt.Fprintf(stderr, "cube: record %s: %v\n", wf.record.path, err)
				return
			}
			fmt.Fprintf(stdout, "record written to %s\n", wf.record.path)
		}()
	}
	l.DesyncFound = func(m *predict.Misprediction) string { return reportDesync(stdout, stderr, wf.reportDir, m) }

	win, err := render.Open(title, wf.width, wf.height)
	if err != nil {
		return exitError{code: 1, msg: windowFailure(err)}
	}
	defer win.Close()

	var frame render.Frame
	shots := shooter{dir: ".", stdout: stdout, stderr: stderr}
	last := win.Time()
	start, n := last, 0
	simTime := 0.0 // seconds spent in the simulation (lab.frame)
	defer func() {
		if wf.frames > 0 && n > 1 {
			ms := 1000 * (win.Time() - start) / float64(n)
			sim := 1000 * simTime / float64(n)
			fmt.Fprintf(stdout, "%d frames at %dx%d: mean frame time %.1f ms (%.0f fps): simulation %.1f ms, drawing and the rest %.1f ms%s; on %s\n",
				n, wf.width, wf.height, ms, 1000/ms, sim, ms-sim, l.PaceNote(), win.GLInfo())
		}
	}()
	for ; !win.ShouldClose(); n++ {
		win.PollEvents()
		shot := false
		for _, k := range win.Pressed() {
			switch a := keyActions[k]; a {
			case lab.ActQuit:
				win.SetShouldClose()
			case lab.ActScreenshot:
				shot = true
			default:
				if err := l.Act(a); err != nil {
					return err
				}
			}
		}
		if l.CameraReset || n == 0 {
			pos, _ := l.Display()
			fw, fh := win.Size()
			win.SetHome(render.FitView(v32(pos), l.FramePoints(), fw, fh)) // the scene framed
			l.CameraReset = false
		}
		l.SetKeys(heldInput(win))
		l.SetWindowSize(win.Size())
		now := win.Time()
		elapsed := now - last
		last = now
		if err := l.Frame(elapsed); err != nil {
			return err
		}
		simTime += win.Time() - now
		if lost := l.LostNews(); lost != nil {
			fmt.Fprintf(stderr, "cube window: %v\n", lost)
		}
		build(l, &frame)
		win.Draw(&frame, elapsed)
		lastFrame := wf.frames > 0 && n+1 >= wf.frames
		if shot {
			l.Say(shots.take(time.Now(), win.Screenshot))
		}
		if lastFrame && wf.screenshot != "" {
			if err := win.Screenshot(wf.screenshot); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "screenshot written to %s\n", wf.screenshot)
		}
		win.Swap()
		if lastFrame {
			n++
			break
		}
	}
	if l.Lost() != nil {
		return exitError{code: 1} // the reason went to stderr when it happened
	}
	return nil
}

// dialWindow connects the window's client to the server -connect names:
// the world its flags build, its own link conditioned by -preset (none
// unless given).
func dialWindow(wf *windowFlags, stderr io.Writer) (*lab.Remote, error) {
	w, sc, mode, err := wf.checkRemote(stderr)
	if err != nil {
		return nil, err
	}
	p, _ := netsim.PresetByName("perfect")
	if wf.set["preset"] {
		if p, err = presetByFlag(wf.session.preset); err != nil {
			return nil, err
		}
	}
	ccfg := predict.DefaultClientConfig()
	ccfg.Mode, ccfg.TimeSync = mode, true
	ccfg.Redundancy, ccfg.Corrections = !wf.session.noRedundancy, !wf.session.noCorrection
	ccfg.FullReplay = wf.session.fullReplay
	ccfg.SyncTest = wf.session.syncTest
	c := predict.NewClient(ccfg, w, sc, randomNonce())
	c.Smooth.Enabled = !wf.session.noSmoothing
	quietQUIC()
	conn, err := transport.Dial(context.Background(), wf.connect.addr, wf.connect.pin, wf.connect.insecure, &transport.Options{Seed: wf.session.seed})
	if err != nil {
		return nil, dialError(err)
	}
	r, err := lab.Connect(wf.connect.addr, conn, c, p, turnFailure)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	return r, nil
}

func v32(v mgl64.Vec3) mgl32.Vec3 { return mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }
func q32(q mgl64.Quat) mgl32.Quat {
	return mgl32.Quat{W: float32(q.W), V: v32(q.V)}
}
func pv(v physics.Vec3) mgl32.Vec3 { return mgl32.Vec3{float32(v.X), float32(v.Y), float32(v.Z)} }
func pq(q physics.Quat) mgl32.Quat {
	return mgl32.Quat{W: float32(q.W), V: mgl32.Vec3{float32(q.X), float32(q.Y), float32(q.Z)}}
}

// Colours of the boxes.
var (
	// The player's cube: a saturated red, which the ghosts drawn over it
	// (faint faces, opaque outlines) leave red, neither brown nor purple.
	colorPlayer    = mgl32.Vec4{0.95, 0.1, 0.08, 1}
	colorServer    = mgl32.Vec4{1, 0.85, 0.1, ghostAlpha}
	colorSnapshot  = mgl32.Vec4{0.2, 0.45, 1, ghostAlpha}
	colorPredicted = mgl32.Vec4{0.9, 0.9, 0.9, 1}
	colorStatic    = mgl32.Vec4{0.55, 0.57, 0.6, 1}
	colorBody      = mgl32.Vec4{0.82, 0.78, 0.70, 1} // other dynamic bodies, moving
	colorResting   = mgl32.Vec4{0.62, 0.59, 0.53, 1} // other dynamic bodies, at rest
)

// ghostAlpha is the opacity of the ghosts' faces: low, so that the
// player's cube under them keeps its colour; their outlines are opaque.
const ghostAlpha = 0.12

// bodyShades alternate the brightness of the neutral bodies by index, so
// that boxes side by side or stacked (the stack, the pyramid) show where
// one ends and the next begins.
var bodyShades = [2]float32{1, 0.84}

// shade returns colour c at the brightness of body i.
func shade(c mgl32.Vec4, i int) mgl32.Vec4 {
	k := bodyShades[i%len(bodyShades)]
	return mgl32.Vec4{c[0] * k, c[1] * k, c[2] * k, c[3]}
}

// Below these speeds a body counts as at rest and is drawn dimmer. The
// physics engine will say which bodies sleep; until then the velocities tell.
const (
	restSpeed2    = 0.02 * 0.02 // (m/s)²
	restAngSpeed2 = 0.05 * 0.05 // (rad/s)²
)

// atRest reports whether a body is (nearly) still.
func atRest(b *physics.BodyState) bool {
	return b.Vel.Dot(b.Vel) < restSpeed2 && b.AngVel.Dot(b.AngVel) < restAngSpeed2
}

// slotColors are the colours of the other players' cubes, by player
// slot: none red (the shown client's cube), yellow (the server's) or blue
// (the last snapshot's), and none a grey of the statics or the neutral of
// the other bodies.
var slotColors = [game.MaxPlayers]mgl32.Vec4{
	{0.20, 0.70, 0.30, 1}, // green
	{0.75, 0.30, 0.80, 1}, // magenta
	{0.10, 0.65, 0.70, 1}, // teal
	{0.95, 0.50, 0.10, 1}, // orange
	{0.45, 0.35, 0.90, 1}, // violet
	{0.60, 0.85, 0.15, 1}, // lime
	{1.00, 0.55, 0.70, 1}, // pink
	{0.50, 0.32, 0.18, 1}, // brown
}

// build fills the frame from the lab, reusing its slices: every body of the
// client's predicted world that is in it (statics grey, other players'
// cubes in their slot's colour, other dynamic bodies neutral, the player's
// cube red at its displayed pose), then the player's ghosts.
func build(l *lab.Lab, f *render.Frame) {
	c := l.Client()
	w, sc := c.World(), c.Scene()
	player := c.Body()
	f.Boxes = f.Boxes[:0]
	for i := 0; i < w.NumBodies(); i++ {
		if i == player || !w.Enabled(i) {
			continue
		}
		b := w.Body(i)
		box := render.Box{Center: pv(b.Pos), Half: pv(w.Half(i)), Rot: pq(b.Rot), Style: render.Solid}
		switch {
		case w.Static(i):
			box.Color, box.Blocks = colorStatic, true
		case slotOf(sc, i) >= 0:
			box.Color, box.Shadow, box.Fades = slotColors[slotOf(sc, i)], true, true
		case atRest(&b):
			box.Color, box.Shadow, box.Fades = shade(colorResting, i), true, true
		default:
			box.Color, box.Shadow, box.Fades = shade(colorBody, i), true, true
		}
		f.Boxes = append(f.Boxes, box)
	}
	half := pv(w.Half(player))
	pos, rot := l.Display()
	if w.Enabled(player) {
		f.Boxes = append(f.Boxes, render.Box{Center: v32(pos), Half: half, Rot: q32(rot), Color: colorPlayer, Style: render.Solid, Shadow: true})
	}
	if b, ok := l.ServerCube(player); ok && l.Show.Server {
		f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: half, Rot: pq(b.Rot), Color: colorServer, Style: render.Translucent})
	}
	if _, ok := c.Newest(); ok && l.Show.Snapshot {
		b := c.NewestBody()
		f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: half, Rot: pq(b.Rot), Color: colorSnapshot, Style: render.Translucent})
	}
	if l.Show.Predicted {
		b := w.Body(player)
		f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: half, Rot: pq(b.Rot), Color: colorPredicted, Style: render.Wireframe})
	}
	f.Follow = v32(pos)
	f.Help, f.ShowHelp = lab.HelpLines(), l.ShowHelp
	f.Banner = l.Desync
	if l.Compact {
		f.Banner = lab.CompactBanner(l.Desync)
	}
	if lost := l.LostBanner(); lost != "" {
		f.Banner = lost
	}
	f.Now = l.Now().Seconds()
	if l.HideOverlay {
		f.HUD, f.Graph = nil, nil
		return
	}
	f.HUD = l.HUD()
	if f.Graph == nil {
		f.Graph = make([]render.Sample, 0, 64*lab.GraphSeconds)
	}
	f.Graph = f.Graph[:0]
	for _, s := range l.Samples {
		f.Graph = append(f.Graph, render.Sample{T: s.T, Error: s.Err, Correction: s.Mark == lab.MarkCorrection, Resync: s.Mark == lab.MarkResync, InFlight: s.InFlight, DownKbps: s.DownKbps})
	}
}

// slotOf returns the player slot whose cube is body i, or -1.
func slotOf(sc *game.Scene, i int) int {
	for p, b := range sc.Players {
		if b == i {
			return p
		}
	}
	return -1
}
