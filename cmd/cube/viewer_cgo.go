//go:build cgo

package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/internal/viewer"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/render"
)

// vact is a record viewer action.
type vact int

const (
	vNone vact = iota
	vPlay
	vTickFwd
	vTickBack
	vSecFwd
	vSecBack
	vTenFwd
	vTenBack
	vStart
	vEnd
	vSlower
	vFaster
	vDivergence
	vNextBad
	vReport
	vGhosts
	vCamera
	vHUD
	vShot
	vHelp
	vQuit
)

// viewerActions maps a pressed key to the viewer's action (viewerKeyHelp
// describes them).
var viewerActions = map[render.Key]vact{
	render.KeySpace: vPlay, render.KeyRight: vTickFwd, render.KeyLeft: vTickBack,
	render.KeyUp: vSecFwd, render.KeyDown: vSecBack, render.KeyPageDown: vTenFwd, render.KeyPageUp: vTenBack,
	render.KeyHome: vStart, render.KeyEnd: vEnd, render.KeyLeftBracket: vSlower, render.KeyRightBracket: vFaster,
	render.KeyD: vDivergence, render.KeyN: vNextBad, render.KeyR: vReport, render.KeyG: vGhosts,
	render.KeyC: vCamera, render.KeyTab: vHUD, render.KeyF12: vShot,
	render.KeyF1: vHelp, render.KeyH: vHelp, render.KeyEscape: vQuit,
}

// Colours of the divergence view.
var (
	colorDiffers  = mgl32.Vec4{1.00, 0.15, 0.75, 1}    // a re-simulated body that differs from the record
	colorRecorded = mgl32.Vec4{0.20, 0.90, 1.00, 0.35} // the record's state of that body
)

// viewerScript is one frame of -keys: a key, or the left button held on the
// timeline at a fraction of it (drag@F).
type viewerScript struct {
	key  render.Key
	drag float64 // negative: none
}

// parseKeys turns -keys into one viewerScript input a frame.
func parseKeys(names []string) ([]viewerScript, error) {
	byName := map[string]render.Key{}
	for k := render.KeyUnknown + 1; k.String() != "unknown"; k++ {
		byName[strings.ToLower(k.String())] = k
	}
	out := make([]viewerScript, len(names))
	for i, n := range names {
		out[i].drag = -1
		if n == "-" || n == "" {
			continue
		}
		if f, ok := strings.CutPrefix(n, "drag@"); ok {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v < 0 || v > 1 {
				return nil, usagef("-keys: %q: want drag@F with F from 0 to 1, a fraction of the timeline", n)
			}
			out[i].drag = v
			continue
		}
		k, ok := byName[strings.ToLower(n)]
		if !ok {
			return nil, usagef("-keys: %q is not a key name (names as in the help: Space, Right, PageUp, End, D, F12, ...) or drag@F", n)
		}
		out[i].key = k
	}
	return out, nil
}

// recordViewer is the viewer's state between frames.
type recordViewer struct {
	name  string
	s     *viewer.Seeker
	check *viewer.Checker
	st    viewer.Status // the check's status, read once a frame
	clock viewer.Clock
	dt    float64 // seconds a tick

	showHelp, showReport, hideHUD bool
	ghosts                        bool
	note                          string // the last action's message, on the HUD
	differ                        []int  // bodies that differ at the shown position, when it is a keyframe

	scrubbing  bool // a drag on the timeline is under way
	scrubTo    int  // the position under the cursor
	scrubExact bool // the world is at scrubTo exactly
}

func runViewer(name string, rec *record.Record, vf *viewerFlags, stdout, stderr io.Writer) error {
	script, err := parseKeys(vf.keyList())
	if err != nil {
		return err
	}
	s, err := viewer.New(rec)
	if err != nil {
		return exitError{code: 2, msg: fmt.Sprintf("%s cannot be replayed here: %s", name, strings.TrimPrefix(err.Error(), "record: replay: "))}
	}
	v := &recordViewer{name: name, s: s, check: viewer.Check(rec), clock: viewer.NewClock(), dt: rec.Header.Physics.Dt, ghosts: true}
	defer v.check.Stop()
	s.UseDerived(v.check)
	if len(script) > 0 {
		v.check.Wait() // a viewerScript run sees the whole check, every time
	}
	win, err := render.Open("cube: record viewer, "+name, vf.width, vf.height)
	if err != nil {
		return exitError{code: 1, msg: windowFailure(err)}
	}
	defer win.Close()

	var frame render.Frame
	var tl render.Timeline
	shots := shooter{dir: ".", stdout: stdout, stderr: stderr}
	last := win.Time()
	scrubbing, wasDown := false, false
	for n := 0; !win.ShouldClose(); n++ {
		win.PollEvents()
		v.st = v.check.Status()
		keys := win.Pressed()
		drag := -1.0
		if n < len(script) {
			if script[n].key != render.KeyUnknown {
				keys = append(keys, script[n].key)
			}
			drag = script[n].drag
		}
		shot := false
		for _, k := range keys {
			switch a := viewerActions[k]; a {
			case vQuit:
				win.SetShouldClose()
			case vShot:
				shot = true
			case vCamera:
				win.ResetCamera()
			default:
				if err := v.act(a); err != nil {
					return err
				}
			}
		}
		x, y, down := win.Mouse()
		if drag >= 0 {
			x, y = win.TimelinePoint(drag)
			down = true
		}
		if down && !wasDown {
			_, scrubbing = win.TimelineAt(x, y)
		}
		wasDown = down
		if err := v.scrub(win, x, y, scrubbing && down); err != nil {
			return err
		}
		scrubbing = scrubbing && down
		now := win.Time()
		elapsed := now - last
		last = now
		for k := v.clock.Advance(elapsed, v.dt); k > 0; k-- {
			if v.s.Pos() == v.s.Len() {
				v.clock.Pause()
				break
			}
			if err := v.s.Forward(); err != nil {
				return err
			}
		}
		v.build(&frame, &tl)
		win.Draw(&frame, elapsed)
		lastFrame := vf.frames > 0 && n+1 >= vf.frames
		if shot {
			v.note = shots.take(time.Now(), win.Screenshot)
		}
		if lastFrame && vf.screenshot != "" {
			if err := win.Screenshot(vf.screenshot); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "screenshot written to %s\n", vf.screenshot)
		}
		win.Swap()
		if lastFrame {
			break
		}
	}
	return v.finish(stdout)
}

// scrub follows a drag on the timeline: while the cursor moves, the
// stored state at the keyframe before it (one Restore, so that scrubbing
// keeps up in any scene); once it rests or the button is let go, the exact
// tick under it, re-simulated.
func (v *recordViewer) scrub(win *render.Window, x, y float64, held bool) error {
	if held {
		f, _ := win.TimelineAt(x, y)
		to := int(f*float64(v.s.Len()) + 0.5)
		v.clock.Pause()
		if !v.scrubbing || to != v.scrubTo {
			v.scrubbing, v.scrubTo, v.scrubExact = true, to, false
			return v.s.SeekNear(to)
		}
	}
	if v.scrubbing && !v.scrubExact {
		v.scrubExact = true
		if err := v.s.Seek(v.scrubTo); err != nil {
			return err
		}
	}
	if !held {
		v.scrubbing = false
	}
	return nil
}

// finish prints what the check found, as cube replay does, and returns the
// same exit status: 1 for a divergence.
func (v *recordViewer) finish(stdout io.Writer) error {
	v.st = v.check.Status()
	fmt.Fprintf(stdout, "the viewer closed at tick %d, step %d of %d\n", v.s.World().Tick(), v.s.Pos(), v.s.Len())
	switch {
	case v.st.Err != nil:
		return exitError{code: 2, msg: fmt.Sprintf("%s cannot be replayed here: %s", v.name, strings.TrimPrefix(v.st.Err.Error(), "record: replay: "))}
	case v.st.First != nil:
		v.st.First.Report(stdout)
		return exitError{code: 1}
	case v.st.Done < v.st.Total:
		fmt.Fprintf(stdout, "checked %d of %d steps before the window closed: no divergence so far\n", v.st.Done, v.st.Total)
	default:
		fmt.Fprintf(stdout, "ok: every tick of the record re-simulates alike (%d steps)\n", v.st.Total)
	}
	return nil
}

// act does one action.
func (v *recordViewer) act(a vact) error {
	s := v.s
	secs := func(k float64) int { return s.Pos() + viewer.SecondsToSteps(k, v.dt) }
	v.note = ""
	switch a {
	case vPlay:
		if !v.clock.Playing && s.Pos() == s.Len() {
			if err := s.Seek(0); err != nil {
				return err
			}
		}
		v.clock.Toggle()
		return nil
	case vSlower:
		v.clock.Slower()
		return nil
	case vFaster:
		v.clock.Faster()
		return nil
	case vReport:
		v.showReport = !v.showReport
		if v.showReport && v.st.First == nil {
			v.note = "no divergence found" + v.checkedSoFar()
			v.showReport = false
		}
		if v.showReport {
			v.showHelp = false
		}
		return nil
	case vGhosts:
		v.ghosts = !v.ghosts
		return nil
	case vHUD:
		v.hideHUD = !v.hideHUD
		return nil
	case vHelp:
		v.showHelp = !v.showHelp
		return nil
	}
	target, seek := 0, true
	switch a {
	case vTickFwd, vTickBack:
		v.clock.Pause()
		target = s.Pos() + 1
		if a == vTickBack {
			target = s.Pos() - 1
		}
	case vSecFwd:
		target = secs(1)
	case vSecBack:
		target = secs(-1)
	case vTenFwd:
		target = secs(10)
	case vTenBack:
		target = secs(-10)
	case vStart:
		target = 0
	case vEnd:
		target = s.Len()
	case vDivergence:
		switch {
		case v.st.First == nil:
			v.note = "no divergence found" + v.checkedSoFar()
			seek = false
		case v.st.DiffPos >= 0:
			target = v.st.DiffPos
		default:
			target = v.st.FirstPos
		}
		v.clock.Pause()
	case vNextBad:
		v.clock.Pause()
		seek = false
		for _, sp := range v.st.Bad {
			if sp.To > s.Pos() {
				target, seek = max(sp.From, s.Pos()+1), true
				break
			}
		}
		if !seek {
			v.note = "no differing tick after this one" + v.checkedSoFar()
		}
	}
	if !seek {
		return nil
	}
	return s.Seek(target)
}

// checkedSoFar says how far the check got, when it is not done.
func (v *recordViewer) checkedSoFar() string {
	if v.st.Done >= v.st.Total {
		return ""
	}
	return fmt.Sprintf(" (the check is at %.0f %%)", 100*viewer.Frac(v.st.Done, v.st.Total))
}

// clockAt formats the record time at position p, from its start.
func (v *recordViewer) clockAt(p int) string {
	t := float64(v.s.TickAt(p)-v.s.TickAt(0)) * v.dt
	m := int(t / 60)
	return fmt.Sprintf("%d:%04.1f", m, t-float64(60*m))
}

// build fills the frame: the re-simulated world's bodies, at a position
// that differs from a stored state the differing ones highlighted and
// their recorded states as ghosts; the status panel, the banner, the help
// or the field report, and the timeline.
func (v *recordViewer) build(f *render.Frame, tl *render.Timeline) {
	s := v.s
	w, sc := s.World(), s.Scene()
	stored := s.Stored(s.Pos())
	v.differ = v.differ[:0]
	if stored != nil && s.Match() == viewer.Differs {
		v.differ = viewer.DifferingBodies(v.differ, stored, w.State())
	}
	f.Boxes = f.Boxes[:0]
	player := -1
	if len(sc.Players) > 0 {
		player = sc.Players[0]
	}
	follow := player
	if len(v.differ) > 0 {
		follow = v.differ[0]
	}
	d := 0
	for i := 0; i < w.NumBodies(); i++ {
		if !w.Enabled(i) {
			continue
		}
		b := w.Body(i)
		box := render.Box{Center: pv(b.Pos), Half: pv(w.Half(i)), Rot: pq(b.Rot), Style: render.Solid, Shadow: true, Fades: i != follow}
		differs := d < len(v.differ) && v.differ[d] == i
		if differs {
			d++
		}
		switch {
		case w.Static(i):
			box.Color, box.Blocks, box.Shadow, box.Fades = colorStatic, true, false, false
		case differs:
			box.Color = colorDiffers
		case i == player:
			box.Color = colorPlayer
		case slotOf(sc, i) >= 0:
			box.Color = slotColors[slotOf(sc, i)]
		case atRest(&b):
			box.Color = colorResting
		default:
			box.Color = colorBody
		}
		f.Boxes = append(f.Boxes, box)
	}
	if v.ghosts {
		for _, i := range v.differ {
			b := &stored.Bodies[i]
			if !b.Disabled {
				f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: pv(w.Half(i)), Rot: pq(b.Rot), Color: colorRecorded, Style: render.Translucent})
			}
		}
	}
	if follow >= 0 {
		f.Follow = pv(w.Body(follow).Pos)
	}
	f.Graph = nil
	f.Banner = v.banner(stored)
	f.ShowHelp = v.showHelp || v.showReport
	f.Help = viewerHelpLines()
	if v.showReport && !v.showHelp {
		f.Help = v.reportLines()
	}
	f.HUD = nil
	if !v.hideHUD {
		f.HUD = v.hud()
	}
	v.timeline(tl)
	f.Timeline = tl
}

// banner says what differs at the shown position, if anything.
func (v *recordViewer) banner(stored *physics.State) string {
	s := v.s
	if s.Match() != viewer.Differs {
		return ""
	}
	tick := s.World().Tick()
	if stored != nil {
		ghosts := ", their recorded states as cyan ghosts (G)"
		if !v.ghosts {
			ghosts = ""
		}
		return fmt.Sprintf("DIVERGED: tick %d differs from the record\n%d of %d bodies differ (magenta)%s; R: the field report",
			tick, len(v.differ), s.World().NumBodies(), ghosts)
	}
	next := ""
	for _, k := range s.Keyframes() {
		if k > s.Pos() {
			next = fmt.Sprintf("; the next stored state is at tick %d (D goes to the first divergence's)", s.TickAt(k))
			break
		}
	}
	return fmt.Sprintf("DIVERGED: tick %d hashes differently\nthe record stores only the hash here%s", tick, next)
}

// hud returns the status lines.
func (v *recordViewer) hud() []string {
	s := v.s
	rec := s.Record()
	h := &rec.Header
	state := "paused"
	if v.clock.Playing {
		state = "playing"
	}
	out := []string{
		fmt.Sprintf("%s  %d steps (%s)", filepath.Base(v.name), s.Len(), v.clockAt(s.Len())),
		fmt.Sprintf("%s  %s  a full state every %d ticks", h.Scene.Name, plural(h.Scene.Players, "player", "players"), h.FullEvery),
		fmt.Sprintf("tick %d  %s %s  step %d/%d", s.World().Tick(), state, v.clock.SpeedString(), s.Pos(), s.Len()),
	}
	out = append(out, v.matchLine())
	switch st := v.st; {
	case st.Err != nil:
		out = append(out, "check: "+st.Err.Error())
	case st.First != nil:
		d := st.First.Divergence
		out = append(out, fmt.Sprintf("check: diverged at tick %d  %s%s  D: go there", d.Tick, plural(len(st.Bad), "span differs", "spans differ"), v.checkedSoFar()))
	case st.Done < st.Total:
		out = append(out, fmt.Sprintf("check: %.0f %% in %s, all alike so far", 100*viewer.Frac(st.Done, st.Total), st.Took.Round(time.Millisecond)))
	default:
		out = append(out, fmt.Sprintf("check: every tick alike (%s)", st.Took.Round(time.Millisecond)))
	}
	if v.note != "" {
		out = append(out, v.note)
	}
	out = append(out, "F1: keys")
	return out
}

// matchLine says how the shown tick compares with the record.
func (v *recordViewer) matchLine() string {
	s := v.s
	stored := s.Pos() > 0 && s.Stored(s.Pos()) != nil
	switch m := s.Match(); {
	case m == viewer.Same && stored:
		return "record: same bits (stored state)"
	case m == viewer.Same:
		return "record: same hash"
	case m == viewer.Differs && stored:
		return "record: DIFFERS (stored state)"
	case m == viewer.Differs:
		return "record: hash DIFFERS"
	case m == viewer.Skipped:
		return "record: a skip, nothing simulated"
	}
	if s.Pos() > 0 {
		return "record: its stored state (scrubbing)"
	}
	return "record: its initial state"
}

// reportLines returns the first divergence's field report for the help
// panel: the report's field lines as "field\tvalues", under a heading.
func (v *recordViewer) reportLines() []string {
	r := v.st.First
	if r == nil {
		return nil
	}
	var b bytes.Buffer
	r.Report(&b)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	out := []string{"Field report (R closes it); the full text is printed when the window closes"}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if where, vals, ok := strings.Cut(l, ": "); ok && (strings.HasPrefix(l, "body ") || strings.HasPrefix(l, "contact") || strings.HasPrefix(l, "tick ")) {
			out = append(out, where+"\t"+vals) // no short form: the bits are the point
			continue
		}
		if len(out) < 3 {
			continue // the first two lines are in the banner and the status panel
		}
		out = append(out, l)
	}
	if d := r.Divergence; d != nil {
		out[0] = fmt.Sprintf("Field report, tick %d: %s (R closes it)", d.DiffTick, plural(len(d.Diff), "field differs", "fields differ"))
		out = append(out[:1], append([]string{d.Note}, out[1:]...)...)
	}
	return out
}

// plural formats n with the singular or plural words.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// timeline fills the timeline from the seeker and the check.
func (v *recordViewer) timeline(tl *render.Timeline) {
	s, st := v.s, v.st
	n := s.Len()
	tl.At = viewer.Frac(s.Pos(), n)
	tl.Checked = viewer.Frac(st.Done, n)
	tl.Bad = tl.Bad[:0]
	for _, sp := range st.Bad {
		tl.Bad = append(tl.Bad, [2]float64{viewer.Frac(sp.From-1, n), viewer.Frac(sp.To, n)})
	}
	tl.Mark = -1
	if st.First != nil {
		tl.Mark = viewer.Frac(st.FirstPos, n)
	}
	tl.Left = fmt.Sprintf("tick %d  %s / %s", s.World().Tick(), v.clockAt(s.Pos()), v.clockAt(n))
	state := "paused"
	if v.clock.Playing {
		state = "playing"
	}
	tl.Right = state + " " + v.clock.SpeedString()
}
