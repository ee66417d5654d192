//go:build cgo

package window

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/render"
	"github.com/cubelab/cube/ui/viewer"
)

// viewerActions maps a pressed key to the viewer's action, built from
// the viewer's one key table, viewer.KeyHelp.
var viewerActions = func() map[render.Key]viewer.Action {
	m := map[render.Key]viewer.Action{}
	for _, e := range viewer.KeyHelp {
		for _, b := range e.Binds {
			k, ok := render.KeyNamed(b.Name)
			if !ok {
				panic("ui/viewer.KeyHelp binds " + b.Name + ", which is no key's label")
			}
			m[k] = b.Act
		}
	}
	return m
}()

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

// keyList splits a -keys value into its names.
func keyList(keys string) []string {
	if strings.TrimSpace(keys) == "" {
		return nil
	}
	out := strings.Split(keys, ",")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
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
				return nil, &KeyError{fmt.Sprintf("-keys: %q: want drag@F with F from 0 to 1, a fraction of the timeline", n)}
			}
			out[i].drag = v
			continue
		}
		k, ok := byName[strings.ToLower(n)]
		if !ok {
			return nil, &KeyError{fmt.Sprintf("-keys: %q is not a key name (names as in the help: Space, Right, PageUp, End, D, F12, ...) or drag@F", n)}
		}
		out[i].key = k
	}
	return out, nil
}

// Replay opens the record viewer's window on rec (read from the file
// name) and runs its frame loop until the window closes, Esc, or the last
// of cfg.Frames; keys, comma-separated names ("-" a frame without a key,
// drag@F the button held on the timeline at the fraction F), when not
// empty, are pressed one a frame from the first, once the whole record is
// checked.
// At the end it writes the check's report to cfg.Stdout. A bad key is a
// *KeyError, a record this machine cannot re-simulate a *ReplayError, a
// window that cannot open an *OpenError, and a record that diverges
// ErrDiverged.
func Replay(name string, rec *record.Record, keys string, cfg Config) error {
	script, err := parseKeys(keyList(keys))
	if err != nil {
		return err
	}
	v, err := viewer.NewView(name, rec)
	if err != nil {
		return &ReplayError{Name: name, Err: err}
	}
	defer v.Close()
	if len(script) > 0 {
		v.Check.Wait() // a scripted run sees the whole check, every time
	}
	win, err := render.Open(cfg.Title, cfg.Width, cfg.Height)
	if err != nil {
		return &OpenError{Err: err, Record: name}
	}
	defer win.Close()

	var frame render.Frame
	var tl render.Timeline
	var dbg lab.Debug // the debug layers' views of the shown world
	shots := shooter{dir: ".", stdout: cfg.Stdout, stderr: cfg.Stderr}
	last := win.Time()
	scrubbing, wasDown := false, false
	for n := 0; !win.ShouldClose(); n++ {
		win.PollEvents()
		v.Refresh()
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
			a, ok := viewerActions[k]
			switch {
			case !ok:
			case a == viewer.Quit:
				win.SetShouldClose()
			case a == viewer.Screenshot:
				shot = true
			case a == viewer.Camera:
				win.ResetCamera()
			default:
				if err := v.Act(a); err != nil {
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
		if scrubbing || !down {
			f, _ := win.TimelineAt(x, y)
			if err := v.Scrub(f, scrubbing && down); err != nil {
				return err
			}
		}
		scrubbing = scrubbing && down
		now := win.Time()
		elapsed := now - last
		last = now
		if err := v.Advance(elapsed); err != nil {
			return err
		}
		v.Refresh()
		buildViewerFrame(v, &frame, &tl, &dbg)
		win.Draw(&frame, elapsed)
		lastFrame := cfg.Frames > 0 && n+1 >= cfg.Frames
		if shot {
			v.Note = shots.take(time.Now(), win.Screenshot)
		}
		if lastFrame {
			if err := lastShot(win, &cfg); err != nil {
				return err
			}
		}
		win.Swap()
		if lastFrame {
			break
		}
	}
	diverged, err := v.Finish(cfg.Stdout)
	switch {
	case err != nil:
		return &ReplayError{Name: name, Err: err}
	case diverged:
		return ErrDiverged
	}
	return nil
}

// buildViewerFrame fills the frame: the re-simulated world's bodies, at a
// position that differs from a stored state the differing ones in magenta
// and their recorded states as cyan ghosts; the status panel, the banner,
// the help or the field report, and the timeline.
func buildViewerFrame(v *viewer.View, f *render.Frame, tl *render.Timeline, dbg *lab.Debug) {
	s := v.S
	w, sc := s.World(), s.Scene()
	differ := v.Differ()
	f.Boxes = f.Boxes[:0]
	player := -1
	if len(sc.Players) > 0 {
		player = sc.Players[0]
	}
	follow := player
	if len(differ) > 0 {
		follow = differ[0]
	}
	for k, on := range v.Layers {
		dbg.On[viewerLayers[k]] = on
	}
	dbg.UpdateWorld(w)
	d := 0
	for i := 0; i < w.NumBodies(); i++ {
		if !w.Enabled(i) {
			continue
		}
		b := w.Body(i)
		box := render.Box{Center: pv(b.Pos), Half: pv(w.Half(i)), Rot: pq(b.Rot), Style: render.Solid, Shadow: true, Fades: i != follow}
		differs := d < len(differ) && differ[d] == i
		if differs {
			d++
		}
		switch {
		case w.Static(i):
			box.Color, box.Blocks, box.Shadow, box.Fades = colorStatic, true, false, false
		case differs:
			box.Color = colorDiffers
		case i == player:
			box.Color = ColorPlayer
		case slotOf(sc, i) >= 0:
			box.Color = SlotColors[slotOf(sc, i)]
		case atRest(&b):
			box.Color = colorResting
		default:
			box.Color = colorBody
		}
		if dbg.On[lab.LayerIslands] && !differs {
			tintBody(dbg, w, i, &box)
		}
		f.Boxes = append(f.Boxes, box)
	}
	debugDraw(dbg, w, f)
	if stored := s.Stored(s.Pos()); v.Ghosts && stored != nil {
		for _, i := range differ {
			if b := &stored.Bodies[i]; !b.Disabled {
				f.Boxes = append(f.Boxes, render.Box{Center: pv(b.Pos), Half: pv(w.Half(i)), Rot: pq(b.Rot), Color: colorRecorded, Style: render.Translucent})
			}
		}
	}
	if follow >= 0 {
		f.Follow = pv(w.Body(follow).Pos)
	}
	f.Graph = nil
	f.Banner = v.Banner()
	f.ShowHelp = v.ShowHelp || v.ShowReport || v.ShowStages
	f.Help = helpLines()
	switch {
	case v.ShowHelp:
	case v.ShowReport:
		f.Help = v.ReportLines()
	case v.ShowStages:
		f.Help = v.StageLines()
	}
	f.HUD = nil
	if !v.HideHUD {
		f.HUD = v.StatusLines()
	}
	tl.At, tl.Checked, tl.Bad, tl.Mark = v.TimelineSpans(tl.Bad[:0])
	tl.Left, tl.Right = v.TimelineText()
	f.Timeline = tl
}

// viewerLayers are the lab's layers of the viewer's, in the order of
// viewer.Contacts to viewer.Velocities.
var viewerLayers = [viewer.NumLayers]lab.Layer{lab.LayerContacts, lab.LayerBounds, lab.LayerIslands, lab.LayerColours, lab.LayerVelocities}

// helpLines returns the viewer's key table for the help overlay.
func helpLines() []string {
	out := []string{"Record viewer: keys and mouse (F1 or H closes this help)"}
	for _, k := range viewer.KeyHelp {
		out = append(out, k.Key+"\t"+k.What+"\t"+k.Short)
	}
	return out
}
