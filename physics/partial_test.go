package physics

import (
	"fmt"
	"slices"
	"testing"
)

// newGrid builds the partial replay's test scene: 64 small cubes in loose
// clusters on the ground (most asleep after a while, many islands), and a
// 1 m driven cube (body 0) that rolls through them.
func newGrid(cfg Config) (*World, error) {
	p := DefaultBoxDef()
	p.Pos = Vec3{-6, 0.5, -6}
	defs := []BoxDef{p}
	for k := 0; k < 64; k++ {
		d := DefaultBoxDef()
		d.Half = Vec3{0.2, 0.2, 0.2}
		d.Mass = 0.2
		// Pairs of cubes 0.41 m apart (close enough to touch when pushed),
		// the pairs 1.5 m apart.
		x := -5 + mul(1.5, float64(k%8)/2*2) + mul(0.41, float64(k%2))
		d.Pos = Vec3{x, 0.2 + mul(0.45, float64(k%3/2)), -5 + mul(1.3, float64(k/8))}
		defs = append(defs, d)
	}
	return buildScene(cfg, defs)
}

// mustGrid is the grid with the default configuration.
func mustGrid() *World { return mustScene(newGrid) }

// gridDrive drives the grid's cube diagonally through the clusters and
// back, a 256-tick loop.
func gridDrive(t uint32) drive {
	switch t %= 256; {
	case t < 100:
		return negZ | posX
	case t < 128:
		return posX | hop
	case t < 228:
		return posZ | negX
	}
	return 0
}

// partialScenes are the scenes the partial replay is checked on.
var partialScenes = append(append([]testScene{{"grid", mustGrid, 0, gridDrive, nil}}, testScenes...), loadsScene)

// partialCase is one partial-against-full check: run the scene warm ticks,
// record span ticks (the prediction), then rewind to the start of the span
// with a few bodies changed and some inputs flipped, and replay it both in
// full and partially, each on a worker count the seed picks.
type partialCase struct {
	scene      int
	warm, span int
	seed       uint64
	flip       []byte // per replayed tick, xored into the drive
}

// rng is a splitmix64 generator for the tests.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// stepScene applies the scene's forces and the drive in for the
// world's tick, then steps.
func stepScene(sc *testScene, w *World, in drive) error {
	if sc.extra != nil {
		if err := sc.extra(w); err != nil {
			return err
		}
	}
	if err := push(w, sc.cube, in); err != nil {
		return err
	}
	w.Step()
	return nil
}

// runPartialCase returns the largest followed set, and an error naming the
// first tick where the partial replay differs from the full one.
func runPartialCase(pc partialCase) (int, error) {
	sc := &partialScenes[pc.scene%len(partialScenes)]
	// The partial replay runs on 1, 2, 3 or 8 workers, the full one on
	// another count: both must give the bits of one.
	workers := [4]int{1, 2, 3, 8}
	w := setWorkers(sc.build(), workers[pc.seed%4])
	defer w.Close()
	n := w.NumBodies()
	for k := 0; k < pc.warm; k++ {
		if err := stepScene(sc, w, sc.script(w.Tick())); err != nil {
			return 0, err
		}
	}
	var start State
	w.Save(&start)
	// The prediction, with its traces.
	rec := make([]Trace, pc.span)
	for k := range rec {
		w.Record(&rec[k])
		if err := stepScene(sc, w, sc.script(w.Tick())); err != nil {
			return 0, err
		}
	}
	// The corrected start: a few dynamic bodies moved or sped up.
	var changed State
	changed.CopyFrom(&start)
	r := rng(pc.seed)
	for m := int(r.next() % 3); m >= 0; m-- {
		i := int(r.next() % uint64(n))
		if w.Static(i) {
			continue
		}
		b := &changed.Bodies[i]
		switch r.next() % 3 {
		case 0:
			b.Pos.X += 0.01
		case 1:
			b.Vel.Z -= 0.5
			b.Asleep, b.Rest = false, 0
		default:
			b.AngVel.Y += 1
			b.Asleep, b.Rest = false, 0
		}
	}
	input := func(k int, t uint32) drive {
		in := sc.script(t)
		if k < len(pc.flip) {
			in ^= drive(pc.flip[k]) & driveBits
		}
		return in
	}
	// The full replay, in a fresh world.
	full := setWorkers(sc.build(), workers[(pc.seed+1)%4])
	defer full.Close()
	if err := full.Restore(&changed); err != nil {
		return 0, err
	}
	want := make([]State, pc.span)
	wantTr := make([]Trace, pc.span)
	for k := range want {
		full.Record(&wantTr[k])
		if err := stepScene(sc, full, input(k, full.Tick())); err != nil {
			return 0, err
		}
		full.Save(&want[k])
	}
	// The partial replay, in the world that predicted.
	w.Load(&changed)
	var set Set
	set.Reset(n)
	set.AddDiff(&start, &changed)
	w.Spread(&set, &start)
	var tr Trace
	most := 0
	for k := range want {
		t := w.Tick()
		if sc.extra != nil {
			if err := sc.extra(w); err != nil {
				return 0, err
			}
		}
		if err := push(w, sc.cube, input(k, t)); err != nil {
			return 0, err
		}
		if err := w.Follow(&set, &rec[k]); err != nil {
			return 0, err
		}
		w.Record(&tr)
		w.Step()
		most = max(most, set.Len())
		if !w.State().Equal(&want[k]) {
			d := Diff(w.State(), &want[k], 1)
			return most, fmt.Errorf("tick %d (replayed %d, %d of %d bodies followed): %v", t, k+1, set.Len(), n, d)
		}
		if err := traceEqual(&tr, &wantTr[k]); err != nil {
			return most, fmt.Errorf("tick %d: the partial step's trace: %v", t, err)
		}
	}
	return most, nil
}

// traceEqual says how a and b differ, if they do.
func traceEqual(a, b *Trace) error {
	eq := slices.Equal[[]int32]
	switch {
	case a.Tick != b.Tick:
		return fmt.Errorf("tick %d, want %d", a.Tick, b.Tick)
	case !eq(a.Active, b.Active):
		return fmt.Errorf("active %v, want %v", a.Active, b.Active)
	case !eq(a.Bodies, b.Bodies):
		return fmt.Errorf("bodies %v, want %v", a.Bodies, b.Bodies)
	case !slices.Equal(a.Links, b.Links):
		return fmt.Errorf("links %v, want %v", a.Links, b.Links)
	case !eq(a.Touched, b.Touched) || len(a.Before) != len(b.Before):
		return fmt.Errorf("touched %v, want %v", a.Touched, b.Touched)
	}
	for k := range a.Before {
		if bodyWords(&a.Before[k]) != bodyWords(&b.Before[k]) {
			return fmt.Errorf("the state before the step of touched body %d differs", a.Touched[k])
		}
	}
	if len(a.States) != len(b.States) || len(a.States) != len(a.Bodies) {
		return fmt.Errorf("%d states for %d bodies, want %d", len(a.States), len(a.Bodies), len(b.States))
	}
	for k := range a.States {
		if bodyWords(&a.States[k]) != bodyWords(&b.States[k]) {
			return fmt.Errorf("state of body %d differs", a.Bodies[k])
		}
	}
	if len(a.Contacts) != len(b.Contacts) {
		return fmt.Errorf("%d contacts, want %d", len(a.Contacts), len(b.Contacts))
	}
	for k := range a.Contacts {
		if contactWords(&a.Contacts[k]) != contactWords(&b.Contacts[k]) {
			return fmt.Errorf("contact %d differs", k)
		}
	}
	return nil
}

// TestPartialReplayEqualsFull runs each case with followPairs' default
// switch from body-by-body pairs to the sweep, and with it at 0 (always
// the sweep), 4 and 8 (switching on the way: at 8 in swarm's cases 1 and
// 2) and never, and checks that every way was taken.
func TestPartialReplayEqualsFull(t *testing.T) {
	var ways [followWays]int
	countFollowWays(t, &ways)
	for _, small := range []int{smallFollow, 0, 4, 8, 1 << 30} {
		smallFollowForTest(t, small)
		for s := range partialScenes {
			for c := 0; c < 6; c++ {
				pc := partialCase{scene: s, warm: 40 + 97*c, span: 32, seed: uint64(s*31 + c)}
				if c%2 == 1 {
					pc.flip = []byte{0, 0, 0, 1, 1, 1, 4, 4, 16}
				}
				most, err := runPartialCase(pc)
				if err != nil {
					t.Errorf("switch at %d bodies: %s, case %d: %v", small, partialScenes[s].name, c, err)
					continue
				}
				t.Logf("switch at %d bodies: %s, case %d: at most %d bodies followed", small, partialScenes[s].name, c, most)
			}
		}
	}
	for way, n := range ways {
		if n == 0 {
			t.Errorf("way %d through followPairs never taken (counts %v)", way, ways)
		}
	}
}

// TestPartialReplayFollowsFew checks that a partial replay is partial: in
// the grid, with the driven cube far from the cube changed, it follows
// few bodies.
func TestPartialReplayFollowsFew(t *testing.T) {
	most, err := runPartialCase(partialCase{scene: 0, warm: 600, span: 32, seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if n := mustGrid().NumBodies(); most > n/4 {
		t.Errorf("followed %d of %d bodies; want at most a quarter", most, n)
	}
}

// TestBreachMakesPartialDiffer shows that the check has teeth: a quantity
// summed over the world (the number of active bodies, added to their
// velocities) breaks the invariant, and the partial replay then differs
// from the full one.
func TestBreachMakesPartialDiffer(t *testing.T) {
	breachForTest(t)
	found := false
	for s := range partialScenes {
		if _, err := runPartialCase(partialCase{scene: s, warm: 300, span: 32, seed: 7}); err != nil {
			found = true
			t.Logf("%s: %v", partialScenes[s].name, err)
		}
	}
	if !found {
		t.Fatal("with a global quantity in the step, every partial replay still equalled the full one")
	}
}

func TestApplyTraceRedoesTheStep(t *testing.T) {
	for _, sc := range partialScenes {
		w := sc.build()
		var s0, want State
		trs := make([]Trace, 300)
		w.Save(&s0)
		for k := range trs {
			w.Record(&trs[k])
			if err := stepScene(&sc, w, sc.script(w.Tick())); err != nil {
				t.Fatal(err)
			}
		}
		w.Save(&want)
		r := sc.build()
		if err := r.Restore(&s0); err != nil {
			t.Fatal(err)
		}
		for k := range trs {
			if err := r.ApplyTrace(&trs[k]); err != nil {
				t.Fatal(err)
			}
		}
		if !r.State().Equal(&want) {
			t.Errorf("%s: applying 300 traces: %v", sc.name, Diff(r.State(), &want, 3))
		}
		if err := r.ApplyTrace(&trs[0]); err == nil {
			t.Errorf("%s: a trace of tick %d applied at tick %d", sc.name, trs[0].Tick, r.Tick())
		}
	}
}

func FuzzPartialReplay(f *testing.F) {
	f.Add(uint8(0), uint16(40), uint8(32), uint64(1), []byte{})
	f.Add(uint8(1), uint16(200), uint8(20), uint64(2), []byte{0, 1, 1, 1, 4, 4, 4, 16})
	f.Add(uint8(3), uint16(199), uint8(40), uint64(3), []byte{2, 2, 2})
	f.Add(uint8(2), uint16(500), uint8(64), uint64(4), []byte{8, 8, 8, 8, 8, 8})
	f.Fuzz(func(t *testing.T, scene uint8, warm uint16, span uint8, seed uint64, flip []byte) {
		pc := partialCase{scene: int(scene), warm: int(warm % 1024), span: 1 + int(span%64), seed: seed, flip: flip}
		if _, err := runPartialCase(pc); err != nil {
			t.Fatal(err)
		}
	})
}
