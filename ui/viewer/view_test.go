package viewer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/cubelab/cube/record"
)

// openView opens rec in a View and waits for its check.
func openView(t *testing.T, rec *record.Record) *View {
	t.Helper()
	v, err := NewView("/some/where/s.rec", rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	v.Check.Wait()
	v.Refresh()
	return v
}

// Keys move the shown position as the help says; playing moves 64 ticks a
// second at 1x and stops at the end.
func TestViewActions(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 1500, fullEvery: 64, nudgeAt: -1})
	v := openView(t, rec)
	// It opens paused at the start and says how to play.
	if v.Clock.Playing || v.S.Pos() != 0 || !strings.Contains(strings.Join(v.StatusLines(), "\n"), "paused 1x  step 0/") ||
		!strings.Contains(strings.Join(v.StatusLines(), "\n"), "Space: play") {
		t.Fatalf("on opening: playing %v at %d, status:\n%s", v.Clock.Playing, v.S.Pos(), strings.Join(v.StatusLines(), "\n"))
	}
	n := v.S.Len()
	steps := []struct {
		a    Action
		want int
	}{
		{End, n}, {TenBack, n - 640}, {TickBack, n - 641}, {SecFwd, n - 577}, {TickFwd, n - 576},
		{SecBack, n - 640}, {Start, 0}, {TenBack, 0}, {TenFwd, 640}, {End, n}, {TenFwd, n},
	}
	for i, s := range steps {
		if err := v.Act(s.a); err != nil {
			t.Fatal(err)
		}
		if v.S.Pos() != s.want {
			t.Fatalf("action %d (%d): at %d, want %d", i, s.a, v.S.Pos(), s.want)
		}
	}
	if err := v.Act(Start); err != nil {
		t.Fatal(err)
	}
	if err := v.Act(Play); err != nil || !v.Clock.Playing {
		t.Fatalf("play: %v", err)
	}
	for k := 0; k < 60; k++ {
		if err := v.Advance(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if p := v.S.Pos(); p < 63 || p > 64 {
		t.Fatalf("1 s at 1x: at %d, want 64", p)
	}
	if l := strings.Join(v.StatusLines(), "\n"); strings.Contains(l, "Space: play") {
		t.Fatalf("playing, the status still says how to play:\n%s", l)
	}
	if err := v.Act(TickFwd); err != nil || v.Clock.Playing {
		t.Fatalf("a step pauses: %v, playing %v", err, v.Clock.Playing)
	}
	if err := v.Act(End); err != nil {
		t.Fatal(err)
	}
	if err := v.Act(Play); err != nil || v.S.Pos() != 0 || !v.Clock.Playing {
		t.Fatalf("play at the end starts over: at %d, playing %v, %v", v.S.Pos(), v.Clock.Playing, err)
	}
	if err := v.Act(End); err != nil {
		t.Fatal(err)
	}
	v.Clock.Playing = true
	if err := v.Advance(1); err != nil || v.Clock.Playing || v.S.Pos() != n {
		t.Fatalf("playing at the end: at %d, playing %v", v.S.Pos(), v.Clock.Playing)
	}
	// A clean record: no divergence to go to, no report to show.
	for _, a := range []Action{Divergence, Report, NextBad} {
		if err := v.Act(a); err != nil || v.ShowReport || !strings.HasPrefix(v.Note, "no d") {
			t.Fatalf("action %d on a clean record: %v, report %v, note %q", a, err, v.ShowReport, v.Note)
		}
	}
	lines := strings.Join(v.StatusLines(), "\n")
	for _, want := range []string{"s.rec  ", "arena  1 player  a full state every 64 ticks", "check: every tick alike", "no differing tick after this one"} {
		if !strings.Contains(lines, want) {
			t.Errorf("status lines lack %q:\n%s", want, lines)
		}
	}
	var out bytes.Buffer
	if diverged, err := v.Finish(&out); diverged || err != nil || !strings.Contains(out.String(), fmt.Sprintf("ok: every tick of the record re-simulates alike (%d steps)", n)) {
		t.Fatalf("finish: %v %v %q", diverged, err, out.String())
	}
}

// At a record whose server was nudged off the record, D shows the stored
// state after the divergence with the nudged cube differing, the banner
// and the status say so, R shows cube replay's field lines, N walks the
// differing ticks, and Finish prints cube replay's report.
func TestViewDivergence(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 600, fullEvery: 32, nudgeAt: 200})
	want, err := record.Replay(rec)
	if err != nil || want.Divergence == nil {
		t.Fatal(err)
	}
	v := openView(t, rec)
	if err := v.Act(Divergence); err != nil {
		t.Fatal(err)
	}
	st := v.Status()
	player := v.S.Scene().Players[0]
	if v.S.Pos() != st.DiffPos || len(v.Differ()) == 0 || v.Differ()[0] != player {
		t.Fatalf("at %d (diff at %d), differing bodies %v", v.S.Pos(), st.DiffPos, v.Differ())
	}
	// One tick names the divergence, the first whose hash differs, in the
	// banner as in the status panel and cube replay's report; the banner's
	// detail names the later tick whose stored state D shows.
	d := want.Divergence
	if d.DiffTick == d.Tick {
		t.Fatalf("the divergence at tick %d falls on a stored state: the test needs one between stored states", d.Tick)
	}
	if b := v.Banner(); !strings.HasPrefix(b, fmt.Sprintf("DIVERGED at tick %d\ntick %d, shown: 1 of ", d.Tick, d.DiffTick)) {
		t.Fatalf("banner %q", b)
	}
	if l := strings.Join(v.StatusLines(), "\n"); !strings.Contains(l, "record: DIFFERS (stored state)") ||
		!strings.Contains(l, fmt.Sprintf("check: diverged at tick %d (bodies compared at tick %d)", d.Tick, d.DiffTick)) {
		t.Fatalf("status:\n%s", l)
	}
	if err := v.Act(Report); err != nil || !v.ShowReport {
		t.Fatalf("report: %v", err)
	}
	rl := v.ReportLines()
	if len(rl) != 2+min(len(want.Divergence.Diff), 64)+boolInt(len(want.Divergence.Diff) > 64) {
		t.Fatalf("%d report lines for %d fields:\n%s", len(rl), len(want.Divergence.Diff), strings.Join(rl, "\n"))
	}
	if w := want.Divergence.Diff[0]; !strings.HasPrefix(rl[2], w.Where+" "+w.Field+"\t") || !strings.Contains(w.String(), strings.SplitN(rl[2], "\t", 2)[1]) {
		t.Fatalf("first field line %q, want %q", rl[2], w)
	}
	// N from the start goes to the first differing tick, then on.
	if err := v.Act(Start); err != nil {
		t.Fatal(err)
	}
	if err := v.Act(NextBad); err != nil || v.S.Pos() != st.FirstPos || v.S.Match() != Differs {
		t.Fatalf("N: at %d (%v), want %d", v.S.Pos(), v.S.Match(), st.FirstPos)
	}
	if !strings.HasPrefix(v.Banner(), fmt.Sprintf("DIVERGED at tick %d\nthis tick: its hash differs", want.Divergence.Tick)) {
		t.Fatalf("banner at the first divergent tick: %q", v.Banner())
	}
	var out, text bytes.Buffer
	want.Report(&text)
	if diverged, err := v.Finish(&out); !diverged || err != nil || !strings.HasSuffix(out.String(), text.String()) {
		t.Fatalf("finish: %v %v\n%s\nwant the report\n%s", diverged, err, out.String(), text.String())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A drag shows the stored state at the keyframe before the cursor; the
// exact position once it rests and when it is let go.
func TestViewScrub(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 640, fullEvery: 64, nudgeAt: -1})
	v := openView(t, rec)
	n := v.S.Len()
	at := func(f float64) int { return int(f*float64(n) + 0.5) }
	if err := v.Scrub(0.5, true); err != nil {
		t.Fatal(err)
	}
	if p := v.S.Pos(); p > at(0.5) || p <= at(0.5)-64 || v.S.Match() != Unknown || v.S.Stored(p) == nil {
		t.Fatalf("moving to 0.5: at %d (%v), want the keyframe before %d", p, v.S.Match(), at(0.5))
	}
	if !strings.Contains(strings.Join(v.StatusLines(), "\n"), "record: its stored state (scrubbing)") {
		t.Fatalf("status while scrubbing:\n%s", strings.Join(v.StatusLines(), "\n"))
	}
	if err := v.Scrub(0.5, true); err != nil || v.S.Pos() != at(0.5) {
		t.Fatalf("resting at 0.5: at %d, want %d (%v)", v.S.Pos(), at(0.5), err)
	}
	if err := v.Scrub(0.8, true); err != nil {
		t.Fatal(err)
	}
	if err := v.Scrub(0.8, false); err != nil || v.S.Pos() != at(0.8) {
		t.Fatalf("let go at 0.8: at %d, want %d (%v)", v.S.Pos(), at(0.8), err)
	}
	if err := v.Scrub(0.1, false); err != nil || v.S.Pos() != at(0.8) {
		t.Fatalf("no drag: the position moved to %d", v.S.Pos())
	}
	at0, checked, bad, mark := v.TimelineSpans(nil)
	if at0 != Frac(at(0.8), n) || checked != 1 || len(bad) != 0 || mark >= 0 {
		t.Fatalf("timeline %v %v %v %v", at0, checked, bad, mark)
	}
	left, right := v.TimelineText()
	if !strings.HasPrefix(left, fmt.Sprintf("tick %d  ", v.S.World().Tick())) || right != "paused 1x" {
		t.Fatalf("timeline text %q %q", left, right)
	}
}
