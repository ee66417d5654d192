package physics

import (
	"math"
	"testing"
)

// The validation suite checks the engine against cases with a known answer,
// the way Box2D, Jolt and Rapier are checked. Each test states
// the analytic result, its derivation and the tolerance it allows; the
// measures are functions (measure*) so that cmd/cube's bench and a reader
// can reproduce the figures.

// valWorld returns a world with cfg's sleep off, so that nothing hides
// behind sleeping, and its bodies' definitions added.
func valWorld(t testing.TB, cfg Config, defs ...BoxDef) *World {
	t.Helper()
	cfg.NoSleep = true
	cfg.Workers = 1
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		if _, err := w.AddBox(d); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(w.Close)
	return w
}

// unitCube returns a 1 m cube of 1 kg whose centre is at pos.
func unitCube(pos Vec3) BoxDef {
	d := DefaultBoxDef()
	d.Pos = pos
	return d
}

// secs returns the number of steps in s seconds of cfg.
func secs(cfg Config, s float64) int { return int(s/cfg.Dt + 0.5) }

// measureFreeFall drops a cube from rest with no contact for 1 s and
// returns the distance fallen.
func measureFreeFall(t testing.TB) float64 {
	cfg := DefaultConfig()
	w := valWorld(t, cfg, unitCube(Vec3{0, 100, 0}))
	for i := 0; i < secs(cfg, 1); i++ {
		w.Step()
	}
	return 100 - w.Body(0).Pos.Y
}

// TestValidationFreeFall: semi-implicit Euler with n substeps of h moves a
// body from rest by g h² (1 + 2 + ... + N) = g T² (1 + 1/N) / 2 after T = N
// h seconds, the exact g T²/2 plus the scheme's offset g T h / 2. Over 1 s
// at 64 Hz with 4 substeps, N = 256: +0.39 %. The test asks for that
// offset within 1e-9 relative.
func TestValidationFreeFall(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	got := measureFreeFall(t)
	n := float64(secs(cfg, 1) * cfg.Iterations)
	want := 9.81 / 2 * (1 + 1/n)
	if math.Abs(got-want) > 1e-9*want {
		t.Errorf("fell %.9f m in 1 s, want %.9f (g/2 (1 + 1/%v))", got, want, n)
	}
}

// measureRest returns the largest spin (rad/s) of a unit cube resting flat
// on the ground over s seconds.
func measureRest(t testing.TB, s float64) float64 {
	cfg := DefaultConfig()
	w := valWorld(t, cfg, unitCube(Vec3{0, 0.5, 0}))
	worst := 0.0
	for i := 0; i < secs(cfg, s); i++ {
		w.Step()
		worst = max(worst, w.Body(0).AngVel.Len())
	}
	return worst
}

// measureFlatDrop drops a unit cube of restitution 1 flat from 1 m (its
// bottom face 1 m above the ground) and returns its spin after the first
// bounce, once it moves up again.
func measureFlatDrop(t testing.TB) float64 {
	cfg := DefaultConfig()
	d := unitCube(Vec3{0, 1.5, 0})
	d.Restitution = 1
	w := valWorld(t, cfg, d)
	for i := 0; i < secs(cfg, 2); i++ {
		w.Step()
		if b := w.Body(0); b.Vel.Y > 0 {
			for k := 0; k < 4; k++ {
				w.Step()
			}
			return w.Body(0).AngVel.Len()
		}
	}
	t.Fatal("flat drop: the cube never bounced")
	return 0
}

// wallShot returns a world without gravity holding a static wall (body 0,
// its face at x = 0) and a face-aligned 0.2 m cube (body 1) of
// restitution e at x0, flying at v m/s along x towards the wall.
func wallShot(t testing.TB, x0, v, e float64) *World {
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	wall := DefaultBoxDef()
	wall.Static = true
	wall.Half = Vec3{0.5, 2, 2}
	wall.Pos = Vec3{0.5, 5, 0}
	cube := DefaultBoxDef()
	cube.Half = Vec3{0.1, 0.1, 0.1}
	cube.Pos = Vec3{x0, 5, 0}
	cube.Vel = Vec3{v, 0, 0}
	cube.Restitution = e
	return valWorld(t, cfg, wall, cube)
}

// measureHeadOn shoots a face-aligned 0.2 m cube of restitution 0 at
// 50 m/s, without gravity, head-on into a static wall, and returns its
// speed and spin two steps after the first step that touched the wall.
func measureHeadOn(t testing.TB) (speed, spin float64) {
	w := wallShot(t, -3, 50, 0)
	for i := 0; i < 64; i++ {
		w.Step()
		if len(w.Contacts()) > 0 || w.Body(1).Vel.X < 49 {
			w.Step()
			w.Step()
			b := w.Body(1)
			return b.Vel.Len(), b.AngVel.Len()
		}
	}
	t.Fatal("head-on: the cube never reached the wall")
	return 0, 0
}

// measureTower stands n aligned unit cubes on the ground, sleep off, for
// s seconds, and returns the largest distance any cube moved from where it
// started sideways (sideways) and the largest overlap of two neighbours or
// of the bottom cube and the ground.
func measureTower(t testing.TB, n int, s float64) (drift, overlap float64) {
	cfg := DefaultConfig()
	defs := make([]BoxDef, n)
	for k := range defs {
		defs[k] = unitCube(Vec3{0, 0.5 + float64(k), 0})
	}
	w := valWorld(t, cfg, defs...)
	for i := 0; i < secs(cfg, s); i++ {
		w.Step()
		for k := range defs {
			drift = max(drift, sideways(w.Body(k).Pos.Sub(defs[k].Pos)))
		}
		overlap = max(overlap, columnOverlap(w, n))
	}
	return drift, overlap
}

// sideways returns the length of d's horizontal part: how far a body
// drifted, whatever it sank.
func sideways(d Vec3) float64 { return math.Hypot(d.X, d.Z) }

// columnOverlap returns the largest overlap along y of the unit cubes 0 to
// n-1 standing one on the other, and of cube 0 with the ground.
func columnOverlap(w *World, n int) float64 {
	o := 0.5 - w.Body(0).Pos.Y
	for k := 1; k < n; k++ {
		o = max(o, 1-(w.Body(k).Pos.Y-w.Body(k-1).Pos.Y))
	}
	return o
}

// measureLoad puts a unit cube of ratio kg on a unit cube of 1 kg on the
// ground, sleep off, for s seconds, and returns the largest distance either
// moved sideways from its start and the largest overlap.
func measureLoad(t testing.TB, ratio, s float64) (drift, overlap float64) {
	cfg := DefaultConfig()
	top := unitCube(Vec3{0, 1.5, 0})
	top.Mass = ratio
	defs := []BoxDef{unitCube(Vec3{0, 0.5, 0}), top}
	w := valWorld(t, cfg, defs...)
	for i := 0; i < secs(cfg, s); i++ {
		w.Step()
		for k := range defs {
			drift = max(drift, sideways(w.Body(k).Pos.Sub(defs[k].Pos)))
		}
		overlap = max(overlap, columnOverlap(w, 2))
	}
	return drift, overlap
}

// measureBounce drops a unit cube of restitution e flat from h m (its
// bottom face h above the ground) and returns the height its bottom face
// reaches after the first bounce.
func measureBounce(t testing.TB, e, h float64) float64 {
	cfg := DefaultConfig()
	d := unitCube(Vec3{0, 0.5 + h, 0})
	d.Restitution = e
	w := valWorld(t, cfg, d)
	up := false
	top := 0.0
	for i := 0; i < secs(cfg, 4); i++ {
		w.Step()
		b := w.Body(0)
		if b.Vel.Y > 0 {
			up = true
			top = max(top, b.Pos.Y-0.5)
		} else if up {
			return top
		}
	}
	return top
}

// spinBox returns a 0.2 x 0.6 x 1.0 m box of 1 kg spinning at w, in a
// world without gravity or angular damping.
func spinWorld(t testing.TB, w0 Vec3) *World {
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	cfg.AngularDamping = 0
	d := DefaultBoxDef()
	d.Half = Vec3{0.1, 0.3, 0.5}
	d.Pos = Vec3{0, 10, 0}
	d.AngVel = w0
	return valWorld(t, cfg, d)
}

// measureFlip spins the box about its intermediate axis (y) at 2 rad/s,
// 1 % off, and returns when its spin about that axis, in its own frame,
// first changes sign (s); 0 if not within s seconds.
func measureFlip(t testing.TB, s float64) float64 {
	w := spinWorld(t, Vec3{0.02, 2, 0.02})
	for i := 0; i < secs(w.Config(), s); i++ {
		w.Step()
		b := w.Body(0)
		if b.Rot.Conj().Rotate(b.AngVel).Y < 0 {
			return float64(i+1) * w.Config().Dt
		}
	}
	return 0
}

// measureLDirection spins the box at (3, 3, 3) rad/s for s seconds and
// returns the largest angle (degrees) between its angular momentum and
// the first one, and the largest relative change of its length.
func measureLDirection(t testing.TB, s float64) (deg, rel float64) {
	w := spinWorld(t, Vec3{3, 3, 3})
	mom := func() Vec3 {
		b := w.Body(0)
		h := w.Half(0)
		m := w.Mass(0)
		I := Vec3{m / 3 * (h.Y*h.Y + h.Z*h.Z), m / 3 * (h.X*h.X + h.Z*h.Z), m / 3 * (h.X*h.X + h.Y*h.Y)}
		wb := b.Rot.Conj().Rotate(b.AngVel)
		return b.Rot.Rotate(Vec3{I.X * wb.X, I.Y * wb.Y, I.Z * wb.Z})
	}
	l0 := mom()
	for i := 0; i < secs(w.Config(), s); i++ {
		w.Step()
		l := mom()
		c := l.Dot(l0) / (l.Len() * l0.Len())
		deg = max(deg, math.Acos(min(1, c))*180/math.Pi)
		rel = max(rel, math.Abs(l.Len()/l0.Len()-1))
	}
	return deg, rel
}

// referenceFlip integrates Euler's equations for the torque-free box of
// spinWorld in its own frame, I dω/dt = Iω × ω, with fourth-order
// Runge-Kutta at 1e-4 s, from ω₀, and returns when ω's y component first
// changes sign (s); 0 if not within s seconds. Only the test uses it, so it
// may use any arithmetic.
func referenceFlip(w0 Vec3, s float64) float64 {
	a, b, c := 0.1, 0.3, 0.5 // half extents
	I := [3]float64{(b*b + c*c) / 3, (a*a + c*c) / 3, (a*a + b*b) / 3}
	f := func(w [3]float64) [3]float64 {
		return [3]float64{
			(I[1] - I[2]) * w[1] * w[2] / I[0],
			(I[2] - I[0]) * w[2] * w[0] / I[1],
			(I[0] - I[1]) * w[0] * w[1] / I[2],
		}
	}
	add := func(w, k [3]float64, h float64) [3]float64 {
		return [3]float64{w[0] + h*k[0], w[1] + h*k[1], w[2] + h*k[2]}
	}
	w := [3]float64{w0.X, w0.Y, w0.Z}
	const h = 1e-4
	for i := 1; float64(i)*h <= s; i++ {
		k1 := f(w)
		k2 := f(add(w, k1, h/2))
		k3 := f(add(w, k2, h/2))
		k4 := f(add(w, k3, h))
		for j := range w {
			w[j] += h / 6 * (k1[j] + 2*k2[j] + 2*k3[j] + k4[j])
		}
		if w[1] < 0 {
			return float64(i) * h
		}
	}
	return 0
}

// measureIncline puts a unit cube on a static slab tilted by theta (rad)
// about z, both of friction 0.5 (the pair's μ = 0.5), and returns its speed
// along the slope gained between 0.5 s and 1.5 s (m/s over 1 s: the
// acceleration) and how far it moved along the slope in that second (the
// first half second lets the contact settle).
func measureIncline(t testing.TB, theta float64) (accel, moved float64) {
	cfg := DefaultConfig()
	rot := AxisTurn(Vec3{0, 0, 1}, math.Tan(theta/2))
	slab := DefaultBoxDef()
	slab.Static, slab.Half, slab.Rot, slab.Pos = true, Vec3{20, 0.5, 3}, rot, Vec3{0, 10, 0}
	cube := unitCube(slab.Pos.Add(rot.Rotate(Vec3{0, 1, 0})))
	cube.Rot = rot
	w := valWorld(t, cfg, slab, cube)
	down := rot.Rotate(Vec3{-1, 0, 0}) // along the slope, downhill for theta > 0
	var v0 float64
	var p0 Vec3
	for i := 1; i <= secs(cfg, 1.5); i++ {
		w.Step()
		if i == secs(cfg, 0.5) {
			v0, p0 = w.Body(1).Vel.Dot(down), w.Body(1).Pos
		}
	}
	return w.Body(1).Vel.Dot(down) - v0, math.Abs(w.Body(1).Pos.Sub(p0).Dot(down))
}

// TestValidationIncline: on a slope of angle θ with μ = 0.5 a box sticks
// while tan θ < μ (θ < 26.57°) and otherwise slides with a = g (sin θ -
// μ cos θ). At 20° it must not slide: with sleep off it creeps 0.21 mm a
// second (0.27 before the block solve: the soft contact's normal impulse breathes
// within a step), the test allows 0.5 mm; at 35° the
// acceleration must be within 1 % of 9.81 (sin 35° - 0.5 cos 35°) = 1.609
// m/s².
func TestValidationIncline(t *testing.T) {
	t.Parallel()
	if _, moved := measureIncline(t, 20*math.Pi/180); moved > 5e-4 {
		t.Errorf("20° (below atan μ): moved %.5f m in a second, want it to stick", moved)
	}
	th := 35 * math.Pi / 180
	want := 9.81 * (math.Sin(th) - 0.5*math.Cos(th))
	if a, _ := measureIncline(t, th); math.Abs(a-want) > 0.01*want {
		t.Errorf("35°: slides at %.4f m/s², want %.4f (g (sin θ - μ cos θ)) within 1 %%", a, want)
	}
}

// measureSlide launches a unit cube at v m/s along x on the ground and
// returns how far it slid before it stopped.
func measureSlide(t testing.TB, v float64) float64 {
	cfg := DefaultConfig()
	d := unitCube(Vec3{0, 0.5, 0})
	d.Vel = Vec3{v, 0, 0}
	w := valWorld(t, cfg, d)
	for i := 0; i < secs(cfg, 3); i++ {
		w.Step()
	}
	return w.Body(0).Pos.X
}

// TestValidationSlideToRest: Coulomb friction μ = 0.5 brakes a sliding box
// at μ g, so from 4 m/s it stops after v² / (2 μ g) = 1.631 m; within 2 %
// (the first step's contact and the discrete stop).
func TestValidationSlideToRest(t *testing.T) {
	t.Parallel()
	want := 16 / (2 * 0.5 * 9.81)
	if got := measureSlide(t, 4); math.Abs(got-want) > 0.02*want {
		t.Errorf("slid %.4f m from 4 m/s, want %.4f (v²/(2 μ g)) within 2 %%", got, want)
	}
}

// TestValidationRestitution: a box leaving the ground at e times its impact
// speed sqrt(2 g h) rises to e² h. Dropped flat from 1 m, for e = 0.5, 0.8
// and 1, the bounce must be within 3 % of e² h (the substep in which it
// meets the ground and the soft contact's push cost about 2 %).
func TestValidationRestitution(t *testing.T) {
	t.Parallel()
	for _, e := range []float64{0.5, 0.8, 1} {
		want := e * e
		if got := measureBounce(t, e, 1); math.Abs(got-want) > 0.03*want {
			t.Errorf("e = %v: bounced to %.4f m, want %.4f (e² h) within 3 %%", e, got, want)
		}
	}
}

// TestValidationFastBounce: a 0.2 m cube of restitution 0.5 thrown
// head-on at a static wall leaves it at half its speed. From about 5 m/s
// up a pair closes more than redoMin in a step, and its contacts are made
// again in the substep where they meet (redo.go): those points must keep
// the impact speed seen in the earlier substeps, or the cube stops dead.
// Of 21 throws (3 to 20 m/s, three starting points each), 18 bounce within
// 1 % (6 did before the fix). The 3 that do not (6 m/s from -3.05 m,
// 12 m/s from -3 m, 20 m/s from -3.05 m) lose the impact to the
// speculative contact, which slows the cube before the point is made;
// that is left as it is.
func TestValidationFastBounce(t *testing.T) {
	t.Parallel()
	right := 0
	for _, v := range []float64{3, 6, 9, 9.3, 9.6, 12, 20} {
		for _, x0 := range []float64{-3, -3.05, -3.1} {
			w := wallShot(t, x0, v, 0.5)
			for range 256 {
				w.Step()
			}
			if got, want := w.Body(1).Vel.X, -0.5*v; math.Abs(got-want) <= 0.01*v*0.5 {
				right++
			} else {
				t.Logf("%v m/s from %v m: back at %.3f m/s, want %.3f", v, x0, got, want)
			}
		}
	}
	if right < 18 {
		t.Errorf("%d of 21 throws bounced at half their speed, want 18 at least", right)
	}
}

// TestValidationSymmetricContacts: a box resting flat, dropped flat or
// hitting a wall face-on has contacts symmetric about its centre, so the
// contact can give it no torque: it must not spin. Bounds: 1e-9 rad/s at
// rest over 10 s, 1e-6 rad/s after a flat bounce with e = 1, and a 0.2 m
// cube hitting a wall head-on at 50 m/s with e = 0 at rest (1e-6 m/s) and
// not spinning (1e-6 rad/s) two steps after it touched (rounding only:
// the points' impulses come from one symmetric block solve, block.go).
func TestValidationSymmetricContacts(t *testing.T) {
	t.Parallel()
	if w := measureRest(t, 10); w > 1e-9 {
		t.Errorf("resting flat: spins at %.3g rad/s, want < 1e-9", w)
	}
	if w := measureFlatDrop(t); w > 1e-6 {
		t.Errorf("flat drop, e = 1: leaves spinning at %.3g rad/s, want < 1e-6", w)
	}
	if v, w := measureHeadOn(t); v > 1e-6 || w > 1e-6 {
		t.Errorf("head-on at 50 m/s: %.3g m/s and %.3g rad/s two steps after, want at rest", v, w)
	}
}

// TestValidationTowers: aligned unit cubes stacked on the ground are in
// equilibrium; nothing pushes them sideways, so a tower must stand. 20
// and 30 cubes for 20 s must keep every cube within 1 cm of where it
// started (sideways; measured 0.0 mm for both, 3 mm and a fall before the
// side planes of face contacts got their tolerance, clip.go) with no
// contact deeper than 2 cm (measured 3.1 and 3.2 mm: loadOverlap's 1 mm
// and the slop's 2 mm, load.go). The same towers with their cubes set off
// sideways by 0.1 µm to 1 cm stand too (2 mm at most); one whose corners
// lie within rounding of the tolerance itself (2⁻²⁰ m off) drifts 2 cm,
// docs/engine.md, "The solver". `cube bench -scene tower -bodies N` measures them.
func TestValidationTowers(t *testing.T) {
	t.Parallel()
	for _, n := range []int{20, 30} {
		if d, o := measureTower(t, n, 20); d > 0.01 || o > 0.02 {
			t.Errorf("tower of %d: drift %.4f m, overlap %.4f m; want < 0.01 and < 0.02", n, d, o)
		}
	}
}

// TestValidationTowerOffset: the tower of 20 with its cubes set off
// sideways in turn by 1 mm (x every other cube, z every third) still
// stands: every cube within 1 cm of where it started (measured 0.2 mm; it
// takes the shock pass's friction, shock.go: without it 3.6 cm).
func TestValidationTowerOffset(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	defs := make([]BoxDef, 20)
	for k := range defs {
		defs[k] = unitCube(Vec3{float64(k%2) * 0.001, 0.5 + float64(k), float64(k%3) * 0.001})
	}
	w := valWorld(t, cfg, defs...)
	drift := 0.0
	for i := 0; i < secs(cfg, 20); i++ {
		w.Step()
		for k := range defs {
			drift = max(drift, sideways(w.Body(k).Pos.Sub(defs[k].Pos)))
		}
	}
	if drift > 0.01 {
		t.Errorf("tower of 20 set off by 1 mm: drift %.4f m, want < 0.01", drift)
	}
}

// TestValidationMassRatio: a heavy unit cube on a light one on the ground
// is in equilibrium, so over 60 s (which holds the table's 10 s rows: the
// measure is the worst over the whole run) neither may move sideways by
// 1 cm and no contact may sink deeper than
// 1 cm at 100:1 and 2 cm at 1000:1. Measured: 100 kg 3.2 mm deep, 15 µm
// aside in the first steps and no further; 1000 kg 1.35 cm at the light
// box's ground contact, 3.5e-13 m aside at 60 s. The 1000:1 row takes the
// shock pass (shock.go), the contacts between moving bodies stiffened up
// to 64 times (load.go) and the extra relax passes around a heavily loaded
// body (heavy.go); before them 100 kg sank 1.8 cm and walked 7 cm, and
// 1000 kg squeezed the light cube out (at 5 s; with the shock pass but
// without the extra passes, at 15 s: the 60 s hold keeps that out).
func TestValidationMassRatio(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ ratio, overlap float64 }{{100, 0.01}, {1000, 0.02}} {
		if d, o := measureLoad(t, c.ratio, 60); d > 0.01 || o > c.overlap {
			t.Errorf("%g kg on 1 kg, 60 s: drift %.4f m, overlap %.4f m; want < 0.01 and < %g", c.ratio, d, o, c.overlap)
		}
	}
}

// TestValidationIntermediateAxis: a torque-free box spun about its
// intermediate axis is unstable (the tennis racket theorem): a 1 % wobble
// grows until the spin flips. The flip must come within 2 % of the time
// a fine Runge-Kutta integration of Euler's equations gives (4.14 s for
// 2 rad/s about y with 0.02 rad/s about x and z); without a gyroscopic
// term it never flips.
func TestValidationIntermediateAxis(t *testing.T) {
	t.Parallel()
	w0 := Vec3{0.02, 2, 0.02}
	want := referenceFlip(w0, 10)
	got := measureFlip(t, 10)
	if want == 0 || math.Abs(got-want) > 0.02*want {
		t.Errorf("flips at %.3f s, the reference at %.3f s; want within 2 %%", got, want)
	}
}

// TestValidationAngularMomentum: with no torque and no damping the
// angular momentum L = R I Rᵀ ω is constant. Spun at (3, 3, 3) rad/s for
// 10 s, the box's L must keep its direction within 1°. Its length may
// shrink a little: the implicit gyroscopic step dissipates (6 %).
func TestValidationAngularMomentum(t *testing.T) {
	t.Parallel()
	deg, rel := measureLDirection(t, 10)
	if deg > 1 {
		t.Errorf("L turned %.3f° in 10 s, want < 1°", deg)
	}
	if rel > 0.1 {
		t.Errorf("|L| changed by %.1f %% in 10 s, want < 10 %%", rel*100)
	}
}
