package game

import (
	"math"
	"strings"
	"testing"

	"github.com/cubelab/cube/physics"
)

// TestBoundsOfForcesAndImpulses: the cubes scene's bounds on force,
// torque, contact impulses and nudges are finite and positive; a value
// of 1e300 in each, or a NaN, is named in the error, and one within
// passes.
func TestBoundsOfForcesAndImpulses(t *testing.T) {
	w, sc, err := Build("cubes", physics.DefaultConfig(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	bd := BoundsOf(w, sc.Options)
	for name, v := range map[string]float64{"impulse": bd.Impulse, "force": bd.Force, "torque": bd.Torque} {
		if !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("%s bound %v", name, v)
		}
	}
	b := w.Body(sc.Players[0])
	if err := bd.Check(&b); err != nil {
		t.Fatalf("the player's cube as built: %v", err)
	}
	for _, c := range []struct {
		what string
		set  func(b *physics.BodyState)
	}{
		{"force", func(b *physics.BodyState) { b.Force.Y = 1e300 }},
		{"torque", func(b *physics.BodyState) { b.Torque.Z = math.NaN() }},
	} {
		bb := b
		c.set(&bb)
		if err := bd.Check(&bb); err == nil || !strings.Contains(err.Error(), c.what) {
			t.Errorf("%s beyond: %v", c.what, err)
		}
	}
	if err := bd.CheckContact(&physics.ContactState{Pn: 1, Pt1: -1e300}); err == nil || !strings.Contains(err.Error(), "contact impulse") {
		t.Errorf("a contact impulse of -1e300: %v", err)
	}
	if err := bd.CheckContact(&physics.ContactState{Pn: bd.Impulse / 2}); err != nil {
		t.Errorf("a contact impulse within: %v", err)
	}
	if err := bd.CheckEvent(Event{Kind: Nudge, Impulse: physics.Vec3{X: 1e300}}); err == nil || !strings.Contains(err.Error(), "nudge") {
		t.Errorf("a nudge of 1e300: %v", err)
	}
	if err := bd.CheckEvent(Event{Kind: Nudge, Impulse: physics.Vec3{X: 3, Y: 1}}); err != nil {
		t.Errorf("the lab's nudge: %v", err)
	}
}

// TestBoundsCheckNamesEveryField: a value beyond the bounds, a NaN or an
// infinity in any component of any of a body's five vectors is refused,
// naming the vector; the body as built passes.
func TestBoundsCheckNamesEveryField(t *testing.T) {
	w, sc, err := Build("cubes", physics.DefaultConfig(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	bd := BoundsOf(w, sc.Options)
	b := w.Body(sc.Players[0])
	fields := []struct {
		what string
		v    func(b *physics.BodyState) *physics.Vec3
		lim  float64
	}{
		{"position", func(b *physics.BodyState) *physics.Vec3 { return &b.Pos }, bd.Pos},
		{"velocity", func(b *physics.BodyState) *physics.Vec3 { return &b.Vel }, bd.Speed},
		{"angular velocity", func(b *physics.BodyState) *physics.Vec3 { return &b.AngVel }, bd.Spin},
		{"force", func(b *physics.BodyState) *physics.Vec3 { return &b.Force }, bd.Force},
		{"torque", func(b *physics.BodyState) *physics.Vec3 { return &b.Torque }, bd.Torque},
	}
	for _, f := range fields {
		for axis := 0; axis < 3; axis++ {
			for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -2 * f.lim, math.Nextafter(f.lim, math.Inf(1)), f.lim} {
				bb := b
				v := f.v(&bb)
				switch axis {
				case 0:
					v.X = x
				case 1:
					v.Y = x
				case 2:
					v.Z = x
				}
				err := bd.Check(&bb)
				if x == f.lim {
					if err != nil {
						t.Errorf("%s component %d at the bound %g: %v", f.what, axis, x, err)
					}
					continue
				}
				if err == nil || !strings.Contains(err.Error(), "a "+f.what+" component") {
					t.Errorf("%s component %d of %g: %v", f.what, axis, x, err)
				}
			}
		}
	}
}
