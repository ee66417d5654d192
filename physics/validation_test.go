package physics

import (
	"math"
	"testing"
)

// The validation suite checks the engine against cases with a known answer,
// the way Box2D, Jolt and Rapier are checked (issue 21). Each test states
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

// measureHeadOn shoots a face-aligned 0.2 m cube of restitution 0 at
// 50 m/s, without gravity, head-on into a static wall, and returns its
// speed and spin two steps after the first step that touched the wall.
func measureHeadOn(t testing.TB) (speed, spin float64) {
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	wall := DefaultBoxDef()
	wall.Static = true
	wall.Half = Vec3{0.5, 2, 2}
	wall.Pos = Vec3{0.5, 5, 0}
	cube := DefaultBoxDef()
	cube.Half = Vec3{0.1, 0.1, 0.1}
	cube.Pos = Vec3{-3, 5, 0}
	cube.Vel = Vec3{50, 0, 0}
	w := valWorld(t, cfg, wall, cube)
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

func TestValidationLog(t *testing.T) {
	t.Logf("ref flip %.4f", referenceFlip(Vec3{0.02, 2, 0.02}, 10))
	for _, n := range []int{10, 20, 30} {
		d, o := measureTower(t, n, 20)
		t.Logf("tower %d drift %.4f overlap %.4f", n, d, o)
	}
	for _, r := range []float64{100, 1000} {
		d, o := measureLoad(t, r, 10)
		t.Logf("load %v drift %.4f overlap %.4f", r, d, o)
	}
	for _, e := range []float64{0.5, 0.8, 1} {
		h := measureBounce(t, e, 1)
		t.Logf("bounce e=%v h=%.4f want %.4f (%+.1f%%)", e, h, e*e, (h/(e*e)-1)*100)
	}
	t.Logf("flip %.3f", measureFlip(t, 10))
	d, r := measureLDirection(t, 10)
	t.Logf("L dir %.3f deg, len %.4f", d, r)
	t.Logf("free fall %.6f", measureFreeFall(t))
	t.Logf("rest spin %.3g", measureRest(t, 10))
	t.Logf("flat drop spin %.3g", measureFlatDrop(t))
	v, s := measureHeadOn(t)
	t.Logf("head-on speed %.3g spin %.3g", v, s)
}
