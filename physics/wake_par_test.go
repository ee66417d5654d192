package physics

import (
	"math/rand/v2"
	"testing"
)

// throwAtSleeper builds a world with a sleeping box on the ground and a
// second box thrown at it, turning, from the pose and velocities given,
// on the given workers.
func throwAtSleeper(t *testing.T, workers int, pos, vel, spin Vec3, rot Quat) *World {
	w, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	setWorkers(w, workers)
	d := DefaultBoxDef()
	d.Pos = Vec3{0, 0.5, 0}
	if _, err := w.AddBox(d); err != nil {
		t.Fatal(err)
	}
	d.Half = Vec3{0.6, 0.1, 0.3}
	d.Pos = Vec3{20, 1, 0}
	if _, err := w.AddBox(d); err != nil {
		t.Fatal(err)
	}
	if err := w.SetEnabled(1, false); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 100 && w.Awake(0); k++ {
		w.Step()
	}
	if w.Awake(0) {
		t.Fatal("box 0 does not fall asleep")
	}
	if err := w.SetEnabled(1, true); err != nil {
		t.Fatal(err)
	}
	if err := w.SetBody(1, BodyState{Pos: pos, Rot: rot, Vel: vel, AngVel: spin}); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestRedoWakesOnWorkers throws a turning box at a sleeping one in many
// ways, fast enough that their contacts are made again in every substep
// (redo), on one worker and on two, and wants the same bits. A sleeping
// box that a redo pair touches is woken by the redo stage, which is
// serial in the stage list (stages.go) for every worker count.
func TestRedoWakesOnWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	redoSeen := 0
	for trial := 0; trial < 200; trial++ {
		u := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
		pos := Vec3{u(-3, -1), u(0.3, 1.6), u(-0.8, 0.8)}
		vel := Vec3{u(5, 40), u(-3, 1), u(-2, 2)}
		spin := Vec3{u(-20, 20), u(-20, 20), u(-20, 20)}
		rot, _ := Quat{u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)}.Normalize()
		one := throwAtSleeper(t, 1, pos, vel, spin, rot)
		two := throwAtSleeper(t, 2, pos, vel, spin, rot)
		for k := 0; k < 8; k++ {
			asleep := two.st.Bodies[0].Asleep
			one.Step()
			two.Step()
			if asleep && len(two.ctx.redo) > 0 {
				redoSeen++ // a redo pair with the sleeping box, solved as static
			}
			if !two.State().Equal(one.State()) {
				t.Fatalf("trial %d, step %d: %v", trial, k, Diff(two.State(), one.State(), 3))
			}
		}
		two.Close()
	}
	if redoSeen < 100 {
		t.Fatalf("only %d throws made a redo pair with the sleeping box", redoSeen)
	}
}
