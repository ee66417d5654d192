package physics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// slide returns the speed left after a 1 m cube launched along dir at 4 m/s
// has slid n steps on the ground.
func slide(t *testing.T, dir Vec3, n int) float64 {
	t.Helper()
	w, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultBoxDef()
	d.Pos, d.Vel = Vec3{0, 0.5, 0}, dir.Scale(4)
	if _, err := w.AddBox(d); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		w.Step()
	}
	return w.Body(0).Vel.Len()
}

func TestFrictionIsTheSameInEveryDirection(t *testing.T) {
	// Friction is clamped to a disc: a diagonal slide brakes as hard as an
	// axis-aligned one (a per-axis clamp brakes it √2 harder). Coulomb:
	// μ = sqrt(0.5 * 0.5) = 0.5, so the speed drops by μ g = 4.905 m/s² and
	// after 24 steps (0.375 s) it is 4 - 1.839 = 2.16 m/s.
	s := math.Sqrt(0.5)
	axis := slide(t, Vec3{1, 0, 0}, 24)
	diag := slide(t, Vec3{s, 0, s}, 24)
	if !near(axis, diag, 1e-3) {
		t.Fatalf("axis-aligned slide keeps %v m/s, diagonal %v m/s", axis, diag)
	}
	if want := 4 - 0.5*9.81*24/64; !near(axis, want, 0.05) {
		t.Fatalf("speed after 24 steps %v, Coulomb friction gives %v", axis, want)
	}
}

func TestRestitutionBouncesFromTheApproachSpeed(t *testing.T) {
	w, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultBoxDef()
	d.Pos, d.Restitution = Vec3{0, 2.5, 0}, 0.5
	if _, err := w.AddBox(d); err != nil {
		t.Fatal(err)
	}
	// It lands at about sqrt(2 g 2) = 6.26 m/s and leaves at half that.
	top, landed := 0.0, false
	for i := 0; i < 200; i++ {
		w.Step()
		b := w.Body(0)
		if b.Vel.Y > 0 {
			landed = true
		}
		if landed {
			top = max(top, b.Pos.Y-0.5)
		}
	}
	// Bounce height e² h = 0.5 m, give or take the step's discreteness.
	if top < 0.4 || top > 0.6 {
		t.Fatalf("bounced to %v m, want about 0.5", top)
	}
}

func TestCollisionOfTwoMovingBoxesKeepsMomentum(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, b := DefaultBoxDef(), DefaultBoxDef()
	a.Pos, a.Vel, a.Mass = Vec3{0, 5, 0}, Vec3{2, 0, 0}, 2
	b.Pos, b.Vel, b.Mass, b.Half = Vec3{1.6, 5.2, 0.1}, Vec3{-1, 0, 0}, 0.5, Vec3{0.3, 0.3, 0.3}
	for _, d := range []BoxDef{a, b} {
		if _, err := w.AddBox(d); err != nil {
			t.Fatal(err)
		}
	}
	p0 := a.Vel.Scale(2).Add(b.Vel.Scale(0.5))
	touched := false
	for i := 0; i < 64; i++ {
		w.Step()
		touched = touched || len(w.Contacts()) > 0
	}
	p1 := w.Body(0).Vel.Scale(2).Add(w.Body(1).Vel.Scale(0.5))
	if !touched || !vecNear(p0, p1, 1e-9) {
		t.Fatalf("touched %v; momentum %v before, %v after", touched, p0, p1)
	}
	if xa, xb := w.Body(0).Pos.X, w.Body(1).Pos.X; xb < xa+0.5 || MaxOverlap(w) > 0.01 {
		t.Fatalf("the boxes went through each other: x %v and %v, overlap %v", xa, xb, MaxOverlap(w))
	}
}

// TestBroadPhaseFindsEveryOverlappingPair: from an order a few swaps from
// sorted (the insertion sort) and from one reversed (past maxShifts: the
// sort from scratch), the broad phase finds exactly the overlapping pairs,
// in order, and leaves the order sorted.
func TestBroadPhaseFindsEveryOverlappingPair(t *testing.T) {
	swap := func(o []int32) { o[0], o[len(o)-1] = o[len(o)-1], o[0] }
	for _, c := range []struct {
		name     string
		disorder func([]int32)
	}{{"swapped", swap}, {"reversed", slices.Reverse[[]int32]}} {
		t.Run(c.name, func(t *testing.T) { broadPhaseCase(t, c.disorder) })
	}
}

func broadPhaseCase(t *testing.T, disorder func([]int32)) {
	rng := rand.New(rand.NewPCG(3, 4))
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		d := DefaultBoxDef()
		d.Half = Vec3{0.1 + rng.Float64(), 0.1 + rng.Float64(), 0.1 + rng.Float64()}
		d.Pos = Vec3{rng.Float64() * 12, rng.Float64() * 12, rng.Float64() * 12}
		d.Rot, _ = Quat{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}.Normalize()
		d.Static = i%5 == 0
		if _, err := w.AddBox(d); err != nil {
			t.Fatal(err)
		}
	}
	w.activate()
	w.findPairs() // sorted, from scratch: what a new world does first
	if w.bp.resort {
		t.Fatal("still to sort after a sort")
	}
	disorder(w.bp.order)
	w.findPairs()
	want := 0
	for i := range w.shapes {
		for j := i + 1; j < len(w.shapes); j++ {
			a, b := &w.bounds[i], &w.bounds[j]
			if w.shapes[i].static && w.shapes[j].static {
				continue
			}
			if a.lo.X <= b.hi.X && b.lo.X <= a.hi.X && a.lo.Y <= b.hi.Y && b.lo.Y <= a.hi.Y && a.lo.Z <= b.hi.Z && b.lo.Z <= a.hi.Z {
				if want >= len(w.ctx.pairs.list) || w.ctx.pairs.list[want] != uint64(i)<<32|uint64(j) {
					t.Fatalf("pair %d-%d missing or out of order", i, j)
				}
				want++
			}
		}
	}
	if want != len(w.ctx.pairs.list) || want == 0 {
		t.Fatalf("%d pairs found, %d overlap", len(w.ctx.pairs.list), want)
	}
	for k := 1; k < len(w.bp.order); k++ {
		if !w.bpLess(w.bp.order[k-1], w.bp.order[k]) {
			t.Fatal("the sorted order is not sorted")
		}
	}
}

func TestMaxOverlapIsExact(t *testing.T) {
	// Two cubes 0.9 m apart along x overlap by 0.1; turned by 45° about y,
	// B's corner reaches √2/2 from its centre, so at 1.1 m it overlaps by
	// 0.5 + √2/2 - 1.1.
	for _, c := range []struct {
		rot  Quat
		dx   float64
		want float64
	}{
		{Identity, 0.9, 0.1},
		{Identity, 1.01, 0},
		{AxisTurn(Vec3{0, 1, 0}, eighth), 1.1, 0.5 + math.Sqrt2/2 - 1.1},
	} {
		w := twoBoxes(t, cubeAt(Vec3{0, 3, 0}, Identity), cubeAt(Vec3{c.dx, 3, 0}, c.rot))
		if got := MaxOverlap(w); !near(got, c.want, 1e-12) {
			t.Errorf("dx %v: overlap %v, want %v", c.dx, got, c.want)
		}
	}
	// A box sunk 3 cm into the ground.
	w := twoBoxes(t, cubeAt(Vec3{0, 0.47, 0}, Identity), cubeAt(Vec3{5, 3, 0}, Identity))
	if got := MaxOverlap(w); !near(got, 0.03, 1e-12) {
		t.Errorf("ground overlap %v, want 0.03", got)
	}
	if err := w.SetEnabled(0, false); err != nil {
		t.Fatal(err)
	}
	if got := MaxOverlap(w); got != 0 {
		t.Errorf("a disabled box counts: %v", got)
	}
}

func TestLayoutCoversEveryConfigField(t *testing.T) {
	base := mustArena().Layout()
	for name, mod := range map[string]func(c *Config){
		"ContactHertz":   func(c *Config) { c.ContactHertz = 31 },
		"ContactDamping": func(c *Config) { c.ContactDamping = 9 },
		"MaxPushSpeed":   func(c *Config) { c.MaxPushSpeed = 2 },
		"NoSleep":        func(c *Config) { c.NoSleep = true },
		"SleepSpeed":     func(c *Config) { c.SleepSpeed = 0.02 },
		"SleepTicks":     func(c *Config) { c.SleepTicks = 10 },
		"Iterations":     func(c *Config) { c.Iterations = 5 },
		"Slop":           func(c *Config) { c.Slop = 0.001 },
	} {
		cfg := DefaultConfig()
		mod(&cfg)
		w, err := newArena(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if w.Layout() == base {
			t.Errorf("Layout ignores %s", name)
		}
	}
	// Zero means the default for the fields added with the soft contacts.
	cfg := DefaultConfig()
	cfg.ContactHertz, cfg.ContactDamping, cfg.MaxPushSpeed, cfg.SleepSpeed, cfg.SleepTicks = 0, 0, 0, 0, 0
	w, err := newArena(cfg)
	if err != nil || w.Layout() != base || w.Config() != DefaultConfig() {
		t.Fatalf("zero fields: %v, layout %x want %x", err, w.Layout(), base)
	}
}
