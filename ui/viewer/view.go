package viewer

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cubelab/cube/record"
)

// Action is something the viewer's user asks for (a key or the mouse).
type Action int

// The viewer's actions.
const (
	None       Action = iota
	Play              // play or pause
	TickFwd           // one tick forward (pauses)
	TickBack          // one tick back (pauses)
	SecFwd            // one second forward
	SecBack           // one second back
	TenFwd            // ten seconds forward
	TenBack           // ten seconds back
	Start             // the start of the record
	End               // its end
	Slower            // play slower
	Faster            // play faster
	Divergence        // the first divergence's stored state
	NextBad           // the next tick that differs, after the shown one
	Report            // the field report on/off
	Stages            // the stage report on/off
	Ghosts            // the recorded states of differing bodies on/off
	HUD               // the status panel on/off
	Help              // the help on/off
	Camera            // reset the camera (the window's own)
	Screenshot        // a screenshot (the window's own)
	Quit              // quit (the window's own)
	// The debug drawing's layers that apply to a world alone, each on or
	// off (Layers, in this order).
	Contacts
	Bounds
	Islands
	Colours
	Velocities
)

// NumLayers is the number of the viewer's debug layers: Contacts to
// Velocities.
const NumLayers = int(Velocities-Contacts) + 1

// View is the record viewer's state between frames, without drawing: the
// Seeker, the background Checker, the play clock, what is shown, and the
// text of the status panel, banner, field report and timeline. The window
// maps keys to Actions, calls Frame once a frame and draws what View says.
type View struct {
	Name  string // the record's file name, for the status panel
	S     *Seeker
	Check *Checker
	Clock Clock

	ShowHelp, ShowReport, ShowStages, HideHUD, Ghosts bool
	// Layers are the debug layers on, by action from Contacts: the shown
	// world's contacts, bounds, islands, solver colours and velocities, as
	// the window draws them (F2 to F5, F8).
	Layers [NumLayers]bool
	Note   string // the last action's message, for the status panel

	st     Status // the check's status, read once a frame
	dt     float64
	differ []int // bodies that differ at the shown position, when it stores a state

	scrubbing  bool // a drag on the timeline is under way
	scrubTo    int  // the position under the cursor
	scrubExact bool // the world is at scrubTo exactly
}

// NewView opens rec for viewing: a Seeker at position 0 and a Checker
// started on it, whose kept states the Seeker uses. Call Close when done.
func NewView(name string, rec *record.Record) (*View, error) {
	s, err := New(rec)
	if err != nil {
		return nil, err
	}
	v := &View{Name: name, S: s, Check: Check(rec), Clock: NewClock(), Ghosts: true, dt: rec.Header.Physics.Dt}
	s.UseDerived(v.Check)
	v.Refresh()
	return v, nil
}

// Close stops the check.
func (v *View) Close() { v.Check.Stop() }

// Refresh reads the check's status and what differs at the shown
// position; call it once a frame, before reading the View.
func (v *View) Refresh() {
	v.st = v.Check.Status()
	s := v.S
	v.differ = v.differ[:0]
	if st := s.Stored(s.Pos()); st != nil && s.Match() == Differs {
		v.differ = DifferingBodies(v.differ, st, s.World().State())
	}
}

// Status returns the check's status as of the last Refresh.
func (v *View) Status() Status { return v.st }

// Differ returns the bodies whose re-simulated state differs from the
// state the record stores at the shown position (none where it stores
// none), as of the last Refresh.
func (v *View) Differ() []int { return v.differ }

// Advance plays dt seconds of wall time: the positions the clock owes, up
// to the end of the record, where it pauses.
func (v *View) Advance(dt float64) error {
	for k := v.Clock.Advance(dt, v.dt); k > 0; k-- {
		if v.S.Pos() == v.S.Len() {
			v.Clock.Pause()
			return nil
		}
		if err := v.S.Forward(); err != nil {
			return err
		}
	}
	return nil
}

// Scrub follows a drag on the timeline, at fraction f of it, with the
// button held or not: while the cursor moves, the stored state at the
// keyframe before it (one Restore, so that scrubbing keeps up in any
// scene); once it rests or the button is let go, the exact tick under it,
// re-simulated. Call it every frame of a drag and once after it.
func (v *View) Scrub(f float64, held bool) error {
	if held {
		to := int(f*float64(v.S.Len()) + 0.5)
		v.Clock.Pause()
		if !v.scrubbing || to != v.scrubTo {
			v.scrubbing, v.scrubTo, v.scrubExact = true, to, false
			return v.S.SeekNear(to)
		}
	}
	if v.scrubbing && !v.scrubExact {
		v.scrubExact = true
		if err := v.S.Seek(v.scrubTo); err != nil {
			return err
		}
	}
	if !held {
		v.scrubbing = false
	}
	return nil
}

// Act does one action.
func (v *View) Act(a Action) error {
	s := v.S
	secs := func(k float64) int { return s.Pos() + SecondsToSteps(k, v.dt) }
	v.Note = ""
	switch a {
	case None, Camera, Screenshot, Quit:
		return nil // nothing of the view's
	case Play:
		if !v.Clock.Playing && s.Pos() == s.Len() {
			if err := s.Seek(0); err != nil {
				return err
			}
		}
		v.Clock.Toggle()
		return nil
	case Slower:
		v.Clock.Slower()
		return nil
	case Faster:
		v.Clock.Faster()
		return nil
	case Report:
		v.ShowReport = !v.ShowReport && v.st.First != nil
		if v.st.First == nil {
			v.Note = "no divergence found" + v.checkedSoFar()
		}
		if v.ShowReport {
			v.ShowHelp, v.ShowStages = false, false
		}
		return nil
	case Stages:
		v.ShowStages = !v.ShowStages && v.st.First != nil
		if v.st.First == nil {
			v.Note = "no divergence found" + v.checkedSoFar()
		}
		if v.ShowStages {
			v.ShowHelp, v.ShowReport = false, false
		}
		return nil
	case Ghosts:
		v.Ghosts = !v.Ghosts
		return nil
	case Contacts, Bounds, Islands, Colours, Velocities:
		v.Layers[a-Contacts] = !v.Layers[a-Contacts]
		return nil
	case HUD:
		v.HideHUD = !v.HideHUD
		return nil
	case Help:
		v.ShowHelp = !v.ShowHelp
		return nil
	}
	target, seek := 0, true
	switch a {
	case TickFwd:
		v.Clock.Pause()
		target = s.Pos() + 1
	case TickBack:
		v.Clock.Pause()
		target = s.Pos() - 1
	case SecFwd:
		target = secs(1)
	case SecBack:
		target = secs(-1)
	case TenFwd:
		target = secs(10)
	case TenBack:
		target = secs(-10)
	case Start:
		target = 0
	case End:
		target = s.Len()
	case Divergence:
		v.Clock.Pause()
		switch {
		case v.st.First == nil:
			v.Note = "no divergence found" + v.checkedSoFar()
			seek = false
		case v.st.DiffPos >= 0:
			target = v.st.DiffPos
		default:
			target = v.st.FirstPos
		}
	case NextBad:
		v.Clock.Pause()
		seek = false
		for _, sp := range v.st.Bad {
			if sp.To > s.Pos() {
				target, seek = max(sp.From, s.Pos()+1), true
				break
			}
		}
		if !seek {
			v.Note = "no differing tick after this one" + v.checkedSoFar()
		}
	default:
		seek = false
	}
	if !seek {
		return nil
	}
	err := s.Seek(target)
	v.Refresh()
	return err
}

// checkedSoFar says how far the check got, when it is not done.
func (v *View) checkedSoFar() string {
	if v.st.Done >= v.st.Total {
		return ""
	}
	return fmt.Sprintf(" (the check is at %.0f %%)", 100*Frac(v.st.Done, v.st.Total))
}

// ClockAt formats the record's time at position p, from its start, as
// M:SS.S.
func (v *View) ClockAt(p int) string {
	t := float64(v.S.TickAt(p)-v.S.TickAt(0)) * v.dt
	m := int(t / 60)
	return fmt.Sprintf("%d:%04.1f", m, t-float64(60*m))
}

// Banner says what differs at the shown position, if anything: a title
// line and a detail line. The title names the first divergence's tick,
// the first state whose hash differs, as the status panel and cube replay
// do; the detail says how the shown tick differs, where a stored state
// compares its bodies (D shows the first such after the divergence, a few
// ticks on when the divergence falls between stored states).
func (v *View) Banner() string {
	s := v.S
	if s.Match() != Differs {
		return ""
	}
	tick := s.World().Tick()
	first := tick
	if f := v.st.First; f != nil && f.Divergence != nil && v.st.FirstPos <= s.Pos() {
		first = f.Divergence.Tick
	}
	title := fmt.Sprintf("DIVERGED at tick %d", first)
	shown := fmt.Sprintf("tick %d, shown", tick)
	if tick == first {
		shown = "this tick"
	}
	if s.Stored(s.Pos()) != nil {
		ghosts := ", their recorded states as cyan ghosts (G)"
		if !v.Ghosts {
			ghosts = ""
		}
		return fmt.Sprintf("%s\n%s: %d of %d bodies differ from the state the record stores (magenta)%s; R: the field report",
			title, shown, len(v.differ), s.World().NumBodies(), ghosts)
	}
	next := ""
	for _, k := range s.Keyframes() {
		if k > s.Pos() {
			next = fmt.Sprintf("; the next stored state is at tick %d (D goes to the first divergence's)", s.TickAt(k))
			break
		}
	}
	return fmt.Sprintf("%s\n%s: its hash differs; the record stores only the hash here%s", title, shown, next)
}

// playing names the clock's state.
func (v *View) playing() string {
	if v.Clock.Playing {
		return "playing"
	}
	return "paused"
}

// playHint says how to play while the clock is paused, as it is when the
// viewer opens.
func (v *View) playHint() string {
	if v.Clock.Playing {
		return ""
	}
	return "  Space: play"
}

// StatusLines returns the status panel's lines.
func (v *View) StatusLines() []string {
	s := v.S
	h := &s.Record().Header
	out := []string{
		fmt.Sprintf("%s  %d steps (%s)", filepath.Base(v.Name), s.Len(), v.ClockAt(s.Len())),
		fmt.Sprintf("%s  %s  a full state every %d ticks", h.Scene.Name, plural(h.Scene.Players, "player", "players"), h.FullEvery),
		fmt.Sprintf("tick %d  %s %s  step %d/%d%s", s.World().Tick(), v.playing(), v.Clock.SpeedString(), s.Pos(), s.Len(), v.playHint()),
		v.matchLine(),
	}
	switch st := v.st; {
	case st.Err != nil:
		out = append(out, "check: "+st.Err.Error())
	case st.First != nil:
		d := st.First.Divergence
		compared := ""
		if d.Compared && d.DiffTick != d.Tick {
			compared = fmt.Sprintf(" (bodies compared at tick %d)", d.DiffTick)
		}
		out = append(out, fmt.Sprintf("check: diverged at tick %d%s  %s%s  D: go there",
			d.Tick, compared, plural(len(st.Bad), "span differs", "spans differ"), v.checkedSoFar()))
	case st.Done < st.Total:
		out = append(out, fmt.Sprintf("check: %.0f %% in %s, all alike so far", 100*Frac(st.Done, st.Total), st.Took.Round(time.Millisecond)))
	default:
		out = append(out, fmt.Sprintf("check: every tick alike (%s)", st.Took.Round(time.Millisecond)))
	}
	if l := v.layersLine(); l != "" {
		out = append(out, l)
	}
	if v.Note != "" {
		out = append(out, v.Note)
	}
	return append(out, "F1: keys")
}

// layersLine names the debug layers on, and says when the shown state was
// restored rather than stepped into: the bounds are then at rest, and the
// pairs and the solver's colours are none (physics.World.Stepped) until a
// step.
func (v *View) layersLine() string {
	names := [NumLayers]string{"contacts", "bounds", "islands", "colours", "velocities"}
	line := ""
	for k, on := range v.Layers {
		if on {
			if line == "" {
				line = "debug (F2 to F5, F8):"
			}
			line += " " + names[k]
		}
	}
	if line != "" && (v.Layers[Bounds-Contacts] || v.Layers[Colours-Contacts]) && !v.S.World().Stepped() {
		line += "  (a restored state: no step's pairs or colours; Right steps)"
	}
	return line
}

// matchLine says how the shown tick compares with the record.
func (v *View) matchLine() string {
	s := v.S
	stored := s.Pos() > 0 && s.Stored(s.Pos()) != nil
	switch m := s.Match(); {
	case m == Same && stored:
		return "record: same bits (stored state)"
	case m == Same:
		return "record: same hash"
	case m == Differs && stored:
		return "record: DIFFERS (stored state)"
	case m == Differs:
		return "record: hash DIFFERS"
	case m == Skipped:
		return "record: a skip, nothing simulated"
	}
	if s.Pos() > 0 {
		return "record: its stored state (scrubbing)"
	}
	return "record: its initial state"
}

// ReportLines returns the first divergence's field report for the help
// panel: a heading, where the diff was taken, then one "field\tvalues"
// line per differing field (cube replay's lines, recorded value first);
// nil when the check found none.
func (v *View) ReportLines() []string {
	r := v.st.First
	if r == nil || r.Divergence == nil {
		return nil
	}
	d := r.Divergence
	var b bytes.Buffer
	r.Report(&b)
	out := []string{fmt.Sprintf("Field report, tick %d: %s (R closes it)", d.DiffTick, plural(len(d.Diff), "field differs", "fields differ")), d.Note}
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if !strings.HasPrefix(l, "  ") {
			continue // the summary lines: in the banner, the status panel and the heading
		}
		l = strings.TrimSpace(l)
		if where, vals, ok := strings.Cut(l, ": "); ok {
			out = append(out, where+"\t"+vals) // no short form: the bits are the point
		} else {
			out = append(out, l) // "... and N more"
		}
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

// TimelineSpans returns, as fractions of the record, where the shown
// position is, how far the check got, the spans that differ (appended to
// bad) and the first divergence (negative: none).
func (v *View) TimelineSpans(bad [][2]float64) (at, checked float64, spans [][2]float64, mark float64) {
	s, st := v.S, v.st
	n := s.Len()
	for _, sp := range st.Bad {
		bad = append(bad, [2]float64{Frac(sp.From-1, n), Frac(sp.To, n)})
	}
	mark = -1
	if st.First != nil {
		mark = Frac(st.FirstPos, n)
	}
	return Frac(s.Pos(), n), Frac(st.Done, n), bad, mark
}

// TimelineText returns the timeline's left and right labels.
func (v *View) TimelineText() (left, right string) {
	s := v.S
	return fmt.Sprintf("tick %d  %s / %s", s.World().Tick(), v.ClockAt(s.Pos()), v.ClockAt(s.Len())),
		v.playing() + " " + v.Clock.SpeedString()
}

// Finish writes where the viewer closed and what the check found, as cube
// replay does: "ok ...", or its report of the first divergence (diverged
// is then true). err is a record the check could not re-simulate.
func (v *View) Finish(w io.Writer) (diverged bool, err error) {
	v.Refresh()
	st := v.st
	fmt.Fprintf(w, "the viewer closed at tick %d, step %d of %d\n", v.S.World().Tick(), v.S.Pos(), v.S.Len())
	switch {
	case st.Err != nil:
		return false, st.Err
	case st.First != nil:
		st.First.Report(w)
		return true, nil
	case st.Done < st.Total:
		fmt.Fprintf(w, "checked %d of %d steps before the window closed: no divergence so far\n", st.Done, st.Total)
	default:
		fmt.Fprintf(w, "ok: every tick of the record re-simulates alike (%d steps)\n", st.Total)
	}
	return false, nil
}
