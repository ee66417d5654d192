package viewer

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// A seek to any position gives the state a replay from the start reaches
// there, in any order of seeks, and says that it matches the record.
func TestSeekEqualsReplayFromStart(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 400, fullEvery: 16, nudgeAt: -1})
	want := straight(t, rec)
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != rec.Len() || len(s.Keyframes()) < 400/16 {
		t.Fatalf("%d positions, %d keyframes", s.Len(), len(s.Keyframes()))
	}
	order := rand.New(rand.NewPCG(1, 2)).Perm(s.Len() + 1)
	for _, p := range order {
		if err := s.Seek(p); err != nil {
			t.Fatal(err)
		}
		if s.Pos() != p || s.World().Hash() != want[p] {
			t.Fatalf("seek %d: at %d, hash %016x, want %016x", p, s.Pos(), s.World().Hash(), want[p])
		}
		if s.World().Tick() != s.TickAt(p) {
			t.Fatalf("seek %d: tick %d, TickAt says %d", p, s.World().Tick(), s.TickAt(p))
		}
		if p > 0 && s.Match() != Same && s.Match() != Skipped {
			t.Fatalf("seek %d: %v", p, s.Match())
		}
	}
}

// Stepping back then forward returns to the same bits, across keyframes
// and skips; so does a seek away and back.
func TestBackThenForwardSameBits(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 300, fullEvery: 16, nudgeAt: -1})
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	var st physics.State
	for p := 1; p < s.Len(); p += 7 {
		if err := s.Seek(p); err != nil {
			t.Fatal(err)
		}
		s.World().Save(&st)
		for k := 0; k < 20; k++ {
			if err := s.Back(); err != nil {
				t.Fatal(err)
			}
		}
		for k := 0; k < 20 && s.Pos() < p; k++ {
			if err := s.Forward(); err != nil {
				t.Fatal(err)
			}
		}
		if s.Pos() != p || !s.World().State().Equal(&st) {
			t.Fatalf("position %d: back 20 and forward again gives position %d, equal %v", p, s.Pos(), s.World().State().Equal(&st))
		}
		if err := s.Seek(s.Len() - p); err != nil {
			t.Fatal(err)
		}
		if err := s.Seek(p); err != nil {
			t.Fatal(err)
		}
		if !s.World().State().Equal(&st) {
			t.Fatalf("position %d: a seek away and back gives other bits", p)
		}
	}
}

// The ends clamp; the world's tick follows skips.
func TestSeekClampsAndSkips(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 120, fullEvery: 64, nudgeAt: -1})
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(-5); err != nil || s.Pos() != 0 {
		t.Fatalf("seek -5: %v, at %d", err, s.Pos())
	}
	if err := s.Back(); err != nil || s.Pos() != 0 {
		t.Fatalf("back at 0: %v, at %d", err, s.Pos())
	}
	if err := s.Seek(1 << 30); err != nil || s.Pos() != s.Len() {
		t.Fatalf("seek far: %v, at %d of %d", err, s.Pos(), s.Len())
	}
	// Steps 0-49 are ticks, step 50 the skip of 5 ticks.
	if rec.Step(50).Kind != record.StepSkip {
		t.Fatalf("step 50 is a %v", rec.Step(50).Kind)
	}
	if err := s.Seek(51); err != nil {
		t.Fatal(err)
	}
	if s.Match() != Skipped || s.World().Tick() != rec.Step(50).To {
		t.Fatalf("after the skip: %v at tick %d, want tick %d", s.Match(), s.World().Tick(), rec.Step(50).To)
	}
}

// A record for a scene this program builds differently is refused as cube
// replay refuses it.
func TestNewRefusesAnotherScene(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 10, fullEvery: 64, nudgeAt: -1})
	rec.Header.Scene.Hash ^= 1
	_, err := New(rec)
	_, want := record.Replay(rec)
	if err == nil || want == nil || strings.TrimPrefix(err.Error(), "viewer: ") != strings.TrimPrefix(want.Error(), "record: replay: ") {
		t.Fatalf("New: %v; Replay: %v", err, want)
	}
}

// A record holding an absurd value is refused by the viewer and by cube
// replay alike (record.Build and record.CheckStep): a gravity of -1e300, a
// stored state with a speed of 1e300.
func TestNewRefusesWhatReplayRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(h *record.Header, steps []record.Step)
		want string
	}{
		{"gravity", func(h *record.Header, _ []record.Step) { h.Physics.Gravity.Y = -1e300 }, "gravity y is -1e+300"},
		{"stored speed", func(_ *record.Header, steps []record.Step) {
			for i := range steps {
				if f := steps[i].Full; f != nil {
					f.Bodies[0].Vel.X = 1e300
					return
				}
			}
		}, "velocity component of 1e+300"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := writeRecord(t, session{scene: "arena", ticks: 40, fullEvery: 16, nudgeAt: -1})
			steps := read.Unpack()
			h := read.Header
			tc.edit(&h, steps)
			rec := record.NewRecord(h, steps)
			_, err := New(rec)
			_, want := record.Replay(rec)
			if err == nil || want == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(want.Error(), tc.want) {
				t.Fatalf("New: %v; Replay: %v; want both to name %q", err, want, tc.want)
			}
		})
	}
}

// The checker finds nothing in a clean record and checks every position.
func TestCheckerCleanRecord(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 300, fullEvery: 32, nudgeAt: -1})
	c := Check(rec)
	c.Wait()
	st := c.Status()
	if st.Err != nil || st.Done != st.Total || st.Total != rec.Len() || len(st.Bad) != 0 || st.First != nil {
		t.Fatalf("%+v", st)
	}
}

// In a record whose server was nudged off the record at one tick, the
// checker finds that tick first, with cube replay's report word for word,
// and the position of the stored state the diff was taken against, where
// the seeker shows the nudged body differing.
func TestCheckerFindsDivergence(t *testing.T) {
	const fullEvery, nudgeAt = 16, 100
	rec := writeRecord(t, session{scene: "arena", ticks: 300, fullEvery: fullEvery, nudgeAt: nudgeAt})
	want, err := record.Replay(rec)
	if err != nil || want.Divergence == nil {
		t.Fatalf("replay: %v, %+v", err, want)
	}
	c := Check(rec)
	c.Wait()
	st := c.Status()
	if st.Err != nil || st.First == nil || st.Done != st.Total {
		t.Fatalf("%+v", st)
	}
	var got, wantText bytes.Buffer
	st.First.Report(&got)
	want.Report(&wantText)
	if got.String() != wantText.String() {
		t.Fatalf("report:\n%s\nwant:\n%s", got.String(), wantText.String())
	}
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	if s.TickAt(st.FirstPos) != want.Divergence.Tick || st.Bad[0].From != st.FirstPos {
		t.Fatalf("first at position %d (tick %d), bad %v; want tick %d", st.FirstPos, s.TickAt(st.FirstPos), st.Bad, want.Divergence.Tick)
	}
	if st.DiffPos < st.FirstPos || s.Stored(st.DiffPos) == nil || s.TickAt(st.DiffPos) != want.Divergence.DiffTick {
		t.Fatalf("diff at position %d (tick %d), want tick %d", st.DiffPos, s.TickAt(st.DiffPos), want.Divergence.DiffTick)
	}
	if err := s.Seek(st.DiffPos); err != nil {
		t.Fatal(err)
	}
	if s.Match() != Differs {
		t.Fatalf("at the diff: %v", s.Match())
	}
	bodies := DifferingBodies(nil, s.Stored(st.DiffPos), s.World().State())
	if len(bodies) == 0 || bodies[0] != s.Scene().Players[0] {
		t.Fatalf("differing bodies %v, want the player's cube %d first", bodies, s.Scene().Players[0])
	}
	if n := len(physics.Diff(s.Stored(st.DiffPos), s.World().State(), 0)); n != len(want.Divergence.Diff) {
		t.Fatalf("%d fields differ in the view, %d in the report", n, len(want.Divergence.Diff))
	}
	// Before the nudge everything matches.
	if err := s.Seek(st.FirstPos - 1); err != nil || s.Match() == Differs {
		t.Fatalf("before the first divergence: %v %v", err, s.Match())
	}
}

// SeekNear shows the stored state at the keyframe at or before a position;
// an exact seek after it gives the re-simulated position, as from
// anywhere.
func TestSeekNear(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 200, fullEvery: 16, nudgeAt: -1})
	want := straight(t, rec)
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{0, 5, 16, 17, 40, 150, s.Len(), s.Len() + 9} {
		if err := s.SeekNear(p); err != nil {
			t.Fatal(err)
		}
		k := s.Pos()
		if k > p || s.Stored(k) == nil || !s.World().State().Equal(s.Stored(k)) || s.Match() != Unknown {
			t.Fatalf("SeekNear(%d): at %d, stored %v, match %v", p, k, s.Stored(k) != nil, s.Match())
		}
		for _, q := range []int{k, k + 1, k + 3, p} {
			q = min(q, s.Len())
			if err := s.Seek(q); err != nil {
				t.Fatal(err)
			}
			if s.World().Hash() != want[q] {
				t.Fatalf("SeekNear(%d) then Seek(%d): hash %016x, want %016x", p, q, s.World().Hash(), want[q])
			}
		}
	}
}

// Seeks that start from the states a Checker kept give the same bits as
// seeks without them, at every position of a clean record and of one that
// diverges, in any order; stepping back over a kept state too.
func TestSeekWithDerivedStates(t *testing.T) {
	for _, nudgeAt := range []int{-1, 150} {
		rec := writeRecord(t, session{scene: "arena", ticks: 500, fullEvery: 64, nudgeAt: nudgeAt})
		c := Check(rec)
		c.Wait()
		if n, bytes := c.Kept(); n < 500/64-1 || bytes <= 0 {
			t.Fatalf("the check kept %d states, %d bytes", n, bytes)
		}
		plain, err := New(rec)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := New(rec)
		if err != nil {
			t.Fatal(err)
		}
		fast.UseDerived(c)
		// A kept state is the first start after opening (no segment yet).
		if n, _ := c.Kept(); n > 0 {
			p := c.derived[0].pos + 1
			if err := fast.Seek(p); err != nil {
				t.Fatal(err)
			}
			if err := plain.Seek(p); err != nil {
				t.Fatal(err)
			}
			if !fast.World().State().Equal(plain.World().State()) {
				t.Fatalf("first seek to %d from a kept state: other bits", p)
			}
		}
		for _, p := range rand.New(rand.NewPCG(7, 8)).Perm(plain.Len() + 1) {
			if err := plain.Seek(p); err != nil {
				t.Fatal(err)
			}
			if err := fast.Seek(p); err != nil {
				t.Fatal(err)
			}
			if !fast.World().State().Equal(plain.World().State()) || fast.Match() != plain.Match() {
				t.Fatalf("nudge %d, position %d: with kept states %v %016x, without %v %016x",
					nudgeAt, p, fast.Match(), fast.World().Hash(), plain.Match(), plain.World().Hash())
			}
		}
		k := fast.Keyframes()
		mid := k[1] + (k[2]-k[1])/2
		if err := fast.Seek(mid + 3); err != nil {
			t.Fatal(err)
		}
		for fast.Pos() > k[1]+1 {
			if err := fast.Back(); err != nil {
				t.Fatal(err)
			}
			if err := plain.Seek(fast.Pos()); err != nil {
				t.Fatal(err)
			}
			if !fast.World().State().Equal(plain.World().State()) {
				t.Fatalf("nudge %d: stepping back to %d over the kept state at %d: other bits", nudgeAt, fast.Pos(), mid)
			}
		}
	}
}

// A record without steps (a session stopped at once) opens, seeks nowhere
// and checks alike.
func TestEmptyRecord(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 0, fullEvery: 64, nudgeAt: -1})
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []int{-1, 0, 5} {
		if err := s.Seek(p); err != nil || s.Pos() != 0 {
			t.Fatalf("Seek(%d): %v, at %d", p, err, s.Pos())
		}
		if err := s.SeekNear(p); err != nil || s.Pos() != 0 {
			t.Fatalf("SeekNear(%d): %v, at %d", p, err, s.Pos())
		}
	}
	if err := s.Forward(); err != nil || s.Pos() != 0 || s.Match() != Unknown {
		t.Fatalf("Forward: %v, at %d, %v", err, s.Pos(), s.Match())
	}
	c := Check(rec)
	c.Wait()
	if st := c.Status(); st.Err != nil || st.Done != 0 || st.Total != 0 || st.First != nil {
		t.Fatalf("%+v", st)
	}
	if Frac(0, 0) != 0 || PosAt(100, 0, 200, 0) != 0 {
		t.Fatal("timeline arithmetic on an empty record")
	}
}

// Seeks while the check runs and keeps states give the bits of a replay
// from the start (run with -race: the kept states are shared).
func TestSeekWhileChecking(t *testing.T) {
	rec := writeRecord(t, session{scene: "arena", ticks: 2000, fullEvery: 64, nudgeAt: -1})
	want := straight(t, rec)
	c := Check(rec)
	defer c.Stop()
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	s.UseDerived(c)
	r := rand.New(rand.NewPCG(9, 10))
	for k := 0; k < 300; k++ {
		p := r.IntN(s.Len() + 1)
		if err := s.Seek(p); err != nil {
			t.Fatal(err)
		}
		if s.World().Hash() != want[p] {
			t.Fatalf("seek %d while checking: other bits", p)
		}
	}
}

// A seek shows the views of the step that made the shown state, however
// it gets there: stepping back (the state is in the segment's cache) gives
// the pairs and the solver's colours a straight run has at that position.
// A keyframe restored as stored (SeekNear) has no step's views, and the
// status says so while the layers that show them are on.
func TestSeekShowsTheViewsOfTheShownState(t *testing.T) {
	rec := writeRecord(t, session{scene: "pyramid", ticks: 40, fullEvery: 16, nudgeAt: -1})
	s, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	straight, err := New(rec)
	if err != nil {
		t.Fatal(err)
	}
	pairs := make([][][2]int32, s.Len()+1)
	colours := make([][]int, s.Len()+1)
	for p := 1; p <= s.Len(); p++ {
		if err := straight.Forward(); err != nil {
			t.Fatal(err)
		}
		pairs[p] = straight.World().Pairs(nil)
		for _, v := range straight.World().ContactViews(nil) {
			colours[p] = append(colours[p], v.Colour)
		}
	}
	if err := s.Seek(s.Len()); err != nil {
		t.Fatal(err)
	}
	coloured, paired := 0, 0
	for s.Pos() > 1 {
		if err := s.Back(); err != nil {
			t.Fatal(err)
		}
		p, w := s.Pos(), s.World()
		got := w.Pairs(nil)
		if !w.Stepped() || len(got) != len(pairs[p]) {
			t.Fatalf("back to %d: stepped %v, %d pairs, a straight run %d", p, w.Stepped(), len(got), len(pairs[p]))
		}
		for k := range got {
			if got[k] != pairs[p][k] {
				t.Fatalf("back to %d: pair %d is %v, a straight run's %v", p, k, got[k], pairs[p][k])
			}
		}
		for k, v := range w.ContactViews(nil) {
			if v.Colour != colours[p][k] {
				t.Fatalf("back to %d: contact %d has colour %d, a straight run's %d", p, k, v.Colour, colours[p][k])
			}
			if v.Colour >= 0 {
				coloured++
			}
		}
		paired += len(got)
	}
	if coloured == 0 || paired == 0 {
		t.Fatalf("%d contacts coloured by a solver, %d pairs: the test shows nothing", coloured, paired)
	}

	v := &View{S: s, Check: Check(rec)}
	defer v.Close()
	v.Layers[Bounds-Contacts] = true
	if err := s.SeekNear(20); err != nil {
		t.Fatal(err)
	}
	if s.World().Stepped() || len(s.World().Pairs(nil)) != 0 {
		t.Fatalf("a keyframe restored as stored: stepped %v, %d pairs", s.World().Stepped(), len(s.World().Pairs(nil)))
	}
	if l := v.layersLine(); !strings.Contains(l, "bounds") || !strings.Contains(l, "restored") {
		t.Fatalf("the status's layer line on a restored keyframe: %q", l)
	}
	if err := s.Forward(); err != nil {
		t.Fatal(err)
	}
	if l := v.layersLine(); strings.Contains(l, "restored") {
		t.Fatalf("the status's layer line after a step: %q", l)
	}
}
