package physics

import (
	"errors"
	"math"
	"testing"
)

func TestBadValuesAreRefused(t *testing.T) {
	w := mustArena()
	before := w.Hash()
	nan, inf := math.NaN(), math.Inf(1)
	for _, err := range []error{
		w.ApplyForce(arenaCube, Vec3{nan, 0, 0}),
		w.ApplyForce(arenaCube, Vec3{0, inf, 0}),
		w.ApplyTorque(arenaCube, Vec3{0, 0, -inf}),
		w.ApplyForceAt(arenaCube, Vec3{1, 0, 0}, Vec3{nan, 0, 0}),
		w.ApplyImpulse(arenaCube, Vec3{nan, nan, nan}),
		w.ApplyImpulseAt(arenaCube, Vec3{0, 1, 0}, Vec3{0, inf, 0}),
	} {
		if !errors.Is(err, ErrBadValue) {
			t.Errorf("got %v, want an ErrBadValue", err)
		}
	}
	if w.Hash() != before {
		t.Fatal("a refused value changed the world")
	}
	if err := w.ApplyForce(1, Vec3{1, 0, 0}); err == nil {
		t.Error("force on a static body was accepted")
	}
	if err := w.ApplyForce(99, Vec3{1, 0, 0}); err == nil {
		t.Error("force on a missing body was accepted")
	}

	for name, mod := range map[string]func(*BoxDef){
		"zero quaternion": func(d *BoxDef) { d.Rot = Quat{} },
		"nan quaternion":  func(d *BoxDef) { d.Rot = Quat{nan, 0, 0, 0} },
		"zero mass":       func(d *BoxDef) { d.Mass = 0 },
		"negative mass":   func(d *BoxDef) { d.Mass = -1 },
		"nan mass":        func(d *BoxDef) { d.Mass = nan },
		"flat box":        func(d *BoxDef) { d.Half.Y = 0 },
		"inf position":    func(d *BoxDef) { d.Pos.X = inf },
		"restitution 2":   func(d *BoxDef) { d.Restitution = 2 },
		"negative mu":     func(d *BoxDef) { d.Friction = -0.1 },
	} {
		d := DefaultBoxDef()
		mod(&d)
		if _, err := w.AddBox(d); !errors.Is(err, ErrBadValue) {
			t.Errorf("%s: AddBox gave %v, want ErrBadValue", name, err)
		}
	}
	if n := w.NumBodies(); n != 8 {
		t.Fatalf("refused boxes were added: %d bodies", n)
	}
	cfg := DefaultConfig()
	cfg.Dt = -1
	if _, err := New(cfg); !errors.Is(err, ErrBadValue) {
		t.Errorf("negative dt accepted: %v", err)
	}
}

func TestAddBoxNormalisesRotation(t *testing.T) {
	w, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultBoxDef()
	d.Rot = Quat{2, 0, 0, 0}
	i, err := w.AddBox(d)
	if err != nil {
		t.Fatal(err)
	}
	if r := w.Body(i).Rot; r != Identity {
		t.Fatalf("rotation %v, want identity", r)
	}
}

func TestRestoreRefusesBadStates(t *testing.T) {
	w := mustArena()
	if err := runArena(w, 200); err != nil {
		t.Fatal(err)
	}
	var good State
	w.Save(&good)
	before := w.Hash()
	bad := []func(s *State){
		func(s *State) { s.Bodies = s.Bodies[:3] },
		func(s *State) { s.Bodies[0].Pos.X = math.NaN() },
		func(s *State) { s.Bodies[0].Rot = Quat{} },
		func(s *State) { s.Bodies[0].Vel.Z = math.Inf(-1) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 0, B: 42}) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 0, B: 0}) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 2, B: 1}) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 0, B: Ground, Feature: 8}) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 0, B: 1, Feature: 6 << featFaceBits}) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 0, B: 1, Feature: featEdge | 12}) },
		func(s *State) { s.Contacts = append(s.Contacts, ContactState{A: 0, B: Ground, Pt2: math.NaN()}) },
		func(s *State) { s.Bodies[1].Asleep = true },
		func(s *State) { s.Bodies[0].Asleep, s.Bodies[0].Disabled = true, true },
		func(s *State) {
			s.Contacts = append(s.Contacts, ContactState{A: 0, B: Ground, Feature: 1}, ContactState{A: 0, B: Ground, Feature: 0})
		},
	}
	for i, mod := range bad {
		var s State
		s.CopyFrom(&good)
		s.Contacts = s.Contacts[:0]
		mod(&s)
		if err := w.Restore(&s); err == nil {
			t.Errorf("bad state %d was restored", i)
		}
		if w.Hash() != before {
			t.Fatalf("refused state %d changed the world", i)
		}
	}
}

func TestCubeRestsOnGround(t *testing.T) {
	w := mustArena()
	for i := 0; i < 640; i++ {
		w.Step()
	}
	b := w.Body(arenaCube)
	if !vecNear(b.Pos, Vec3{0, 0.5, 0}, 2e-3) || b.Vel.Len() > 1e-3 {
		t.Fatalf("resting cube moved: pos %v vel %v", b.Pos, b.Vel)
	}
	if !w.Grounded(arenaCube) {
		t.Fatal("resting cube is not grounded")
	}
}

func TestFallMatchesSemiImplicitEuler(t *testing.T) {
	w := mustArena()
	w.st.Bodies[arenaCube].Pos.Y = 10
	g, h := 9.81, w.Config().Dt/float64(w.Config().Iterations)
	for n := 1; n <= 32; n++ {
		w.Step()
		// Semi-implicit Euler over k = n*Iterations substeps of h:
		// v_k = -k g h, y_k = 10 - g h² k(k+1)/2.
		k := n * w.Config().Iterations
		want := 10 - g*h*h*float64(k*(k+1))/2
		if y := w.Body(arenaCube).Pos.Y; !near(y, want, 1e-12) {
			t.Fatalf("step %d: y = %v, want %v", n, y, want)
		}
	}
	for i := 0; i < 400; i++ {
		w.Step()
	}
	if y := w.Body(arenaCube).Pos.Y; !near(y, 0.5, 0.01) {
		t.Fatalf("cube came to rest at y = %v, want 0.5", y)
	}
}

func TestWallStopsTheCube(t *testing.T) {
	w := mustArena()
	for i := 0; i < 320; i++ {
		if err := push(w, arenaCube, negZ); err != nil {
			t.Fatal(err)
		}
		w.Step()
	}
	// The wall's face is at z = -7.75; the cube's centre stops half a metre
	// in front of it, give or take the slop.
	if z := w.Body(arenaCube).Pos.Z; !near(z, -7.25, 0.03) {
		t.Fatalf("cube pushed into the wall stopped at z = %v, want -7.25", z)
	}
}

func TestForceAtPointMakesTorque(t *testing.T) {
	w := mustArena()
	if err := w.ApplyForceAt(arenaCube, Vec3{0, 0, -1}, Vec3{0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	// r = (0, 0.5, 0), f = (0, 0, -1): τ = r × f = (-0.5, 0, 0).
	if tq := w.Body(arenaCube).Torque; !vecNear(tq, Vec3{-0.5, 0, 0}, 0) {
		t.Fatalf("torque %v, want (-0.5, 0, 0)", tq)
	}
	w.Step()
	if f := w.Body(arenaCube).Force; f != (Vec3{}) {
		t.Fatalf("force not cleared by the step: %v", f)
	}
}

func TestSetBody(t *testing.T) {
	w := mustArena()
	b := w.Body(arenaCube)
	b.Pos.X = 3
	if err := w.SetBody(arenaCube, b); err != nil || w.Body(arenaCube).Pos.X != 3 {
		t.Fatalf("SetBody: %v, x = %v", err, w.Body(arenaCube).Pos.X)
	}
	b.Rot = Quat{}
	if err := w.SetBody(arenaCube, b); !errors.Is(err, ErrBadValue) {
		t.Fatalf("zero rotation: %v", err)
	}
	b.Rot, b.Vel.Y = Identity, math.NaN()
	if err := w.SetBody(arenaCube, b); !errors.Is(err, ErrBadValue) || w.Body(arenaCube).Rot != Identity {
		t.Fatalf("NaN velocity: %v", err)
	}
}

func TestMovedStaticBoxCollidesWhereItIs(t *testing.T) {
	// Static boxes' derived data is computed when their pose is set: move
	// the wall from z = -8 to z = -3 and the cube must stop at its new face.
	for _, how := range []string{"SetBody", "Restore"} {
		w := mustArena()
		wall := w.Body(1)
		wall.Pos.Z = -3
		switch how {
		case "SetBody":
			if err := w.SetBody(1, wall); err != nil {
				t.Fatal(err)
			}
		case "Restore":
			var s State
			w.Save(&s)
			s.Bodies[1] = wall
			if err := mustArena().Restore(&s); err != nil {
				t.Fatal(err)
			}
			w = mustArena()
			if err := w.Restore(&s); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 200; i++ {
			if err := stepArena(w, negZ); err != nil {
				t.Fatal(err)
			}
		}
		if z := w.Body(arenaCube).Pos.Z; !near(z, -2.25, 0.03) {
			t.Fatalf("%s: cube stopped at z = %v, want -2.25 in front of the moved wall", how, z)
		}
	}
}
