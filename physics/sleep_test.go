package physics

import (
	"errors"
	"testing"
)

// restingPile returns the pile stepped until every body sleeps.
func restingPile(t *testing.T) *World {
	t.Helper()
	w := mustPile()
	for i := 0; i < 400 && w.AwakeCount() > 0; i++ {
		w.Step()
	}
	if n := w.AwakeCount(); n != 0 {
		t.Fatalf("%d bodies still awake after 400 steps", n)
	}
	return w
}

func TestBodiesAtRestSleepAndCostNothing(t *testing.T) {
	w := restingPile(t)
	var before State
	w.Save(&before)
	for i := 0; i < 100; i++ {
		w.Step()
	}
	// Nothing but the tick changed: sleeping bodies are not integrated and
	// keep their contacts (and so can still jump: Grounded).
	after := w.State()
	after.Tick = before.Tick
	if !after.Equal(&before) {
		t.Fatalf("a sleeping world changed: %v", Diff(after, &before, 3))
	}
	after.Tick = before.Tick + 100
	if !w.Grounded(pileCube) {
		t.Fatal("the sleeping driven cube is not grounded")
	}
	for i := 0; i < w.NumBodies(); i++ {
		b := w.Body(i)
		if w.Static(i) != !b.Asleep || w.Awake(i) {
			t.Fatalf("body %d: asleep %v, static %v", i, b.Asleep, w.Static(i))
		}
		if b.Asleep && (b.Vel != Vec3{} || b.AngVel != Vec3{}) {
			t.Fatalf("sleeping body %d moves: %v %v", i, b.Vel, b.AngVel)
		}
	}
}

func TestSleepingOffKeepsEveryBodyAwake(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NoSleep = true
	w, err := newPile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		w.Step()
	}
	if n := w.AwakeCount(); n != 9 {
		t.Fatalf("%d awake with sleeping off, want all 9 dynamic bodies", n)
	}
	if r := w.Body(pileCube).Rest; r != 0 {
		t.Fatalf("rest count %d with sleeping off", r)
	}
}

func TestWakingWakesTheIsland(t *testing.T) {
	stack := []int{2, 3, 4} // on the static platform, body 0
	for _, c := range []struct {
		name string
		poke func(w *World) error
	}{
		{"force", func(w *World) error { return w.ApplyForce(2, Vec3{1, 0, 0}) }},
		{"force at", func(w *World) error { return w.ApplyForceAt(2, Vec3{1, 0, 0}, w.Body(2).Pos) }},
		{"torque", func(w *World) error { return w.ApplyTorque(2, Vec3{0, 1, 0}) }},
		{"impulse", func(w *World) error { return w.ApplyImpulse(2, Vec3{0.01, 0, 0}) }},
		{"impulse at", func(w *World) error { return w.ApplyImpulseAt(2, Vec3{0.01, 0, 0}, w.Body(2).Pos) }},
		{"set body", func(w *World) error { return w.SetBody(2, w.Body(2)) }},
	} {
		w := restingPile(t)
		if err := c.poke(w); err != nil {
			t.Fatal(err)
		}
		if !w.Awake(2) || w.Awake(4) {
			t.Fatalf("%s: body 2 awake %v, body 4 awake %v before the step", c.name, w.Awake(2), w.Awake(4))
		}
		w.Step()
		for _, i := range stack {
			if !w.Awake(i) {
				t.Errorf("%s: body %d of the island is still asleep", c.name, i)
			}
		}
		if w.Awake(pileCube) || w.Awake(5) {
			t.Errorf("%s: bodies of other islands woke", c.name)
		}
	}
}

func TestZeroForceDoesNotWake(t *testing.T) {
	w := restingPile(t)
	if err := w.ApplyForce(2, Vec3{}); err != nil {
		t.Fatal(err)
	}
	if err := w.ApplyImpulse(3, Vec3{}); err != nil {
		t.Fatal(err)
	}
	if w.AwakeCount() != 0 {
		t.Fatal("a zero force woke a body")
	}
}

func TestContactWithAnAwakeBodyWakes(t *testing.T) {
	w := restingPile(t)
	// Throw the small cube (8) at the plank (5): on contact the plank
	// wakes; bodies not touched stay asleep.
	b := w.Body(8)
	b.Pos = Vec3{3, 0.5, 0}
	b.Vel = Vec3{0, -2, 0}
	if err := w.SetBody(8, b); err != nil {
		t.Fatal(err)
	}
	woke := false
	for i := 0; i < 20 && !woke; i++ {
		w.Step()
		woke = w.Awake(5)
	}
	if !woke {
		t.Fatal("the plank slept through a cube landing on it")
	}
	if w.Awake(2) || w.Awake(pileCube) {
		t.Fatal("bodies far from the landing woke")
	}
}

func TestSleepStateIsInTheHashAndCodec(t *testing.T) {
	w := restingPile(t)
	var s State
	w.Save(&s)
	h := s.Hash()
	s.Bodies[2].Asleep = false
	if s.Hash() == h || s.Equal(w.State()) {
		t.Fatal("the asleep flag is not covered")
	}
	b := AppendState(nil, &s)
	var got State
	if _, err := DecodeState(b, &got, 64, 1024); err != nil || !got.Equal(&s) || got.Bodies[3].Rest == 0 || !got.Bodies[3].Asleep {
		t.Fatalf("round trip: %v", err)
	}
	if d := Diff(w.State(), &s, 0); len(d) != 1 || d[0].Field != "flags" || d[0].Float {
		t.Fatalf("diff %v, want body 2 flags", d)
	}
}

func TestDisabledBodyTakesNoPart(t *testing.T) {
	w := mustPile()
	if err := w.SetEnabled(3, false); err != nil { // the middle of the stack
		t.Fatal(err)
	}
	if w.Enabled(3) || w.Awake(3) {
		t.Fatal("body 3 still enabled or awake")
	}
	if err := w.ApplyForce(3, Vec3{1, 0, 0}); !errors.Is(err, ErrDisabled) {
		t.Fatalf("force on a disabled body: %v", err)
	}
	pose := w.Body(3)
	for i := 0; i < 120; i++ {
		w.Step()
		for _, c := range w.Contacts() {
			if c.A == 3 || c.B == 3 {
				t.Fatal("a disabled body has a contact")
			}
		}
	}
	if got := w.Body(3); got.Pos != pose.Pos || got.Rot != pose.Rot {
		t.Fatalf("disabled body moved from %v to %v", pose.Pos, got.Pos)
	}
	// The top cube fell through where body 3 is, onto body 2.
	if y := w.Body(4).Pos.Y; y > 2.05 {
		t.Fatalf("the cube above the disabled one stayed at y = %v", y)
	}
	// It now fills the disabled body's place, which MaxOverlap ignores.
	if o := MaxOverlap(w); o > 0.02 {
		t.Fatalf("MaxOverlap %v: it counts the disabled body", o)
	}
}

func TestReenabledBodyWakesAndCollides(t *testing.T) {
	w := restingPile(t)
	if err := w.SetEnabled(8, false); err != nil {
		t.Fatal(err)
	}
	if err := w.SetEnabled(8, false); err != nil { // twice is fine
		t.Fatal(err)
	}
	var s State
	w.Save(&s)
	if !s.Bodies[8].Disabled {
		t.Fatal("the disabled flag is not in the state")
	}
	if err := w.SetEnabled(8, true); err != nil {
		t.Fatal(err)
	}
	if !w.Awake(8) || !w.Enabled(8) {
		t.Fatal("re-enabled body is not awake")
	}
	if err := w.SetEnabled(99, true); err == nil {
		t.Fatal("SetEnabled on a missing body")
	}
}
