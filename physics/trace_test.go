package physics

import "testing"

func TestSetAddDiff(t *testing.T) {
	w := mustPile()
	if err := testScenes[1].run(w, 40); err != nil {
		t.Fatal(err)
	}
	var a, b State
	w.Save(&a)
	w.Save(&b)
	n := w.NumBodies()
	var s Set
	s.Reset(n)
	s.AddDiff(&a, &b)
	if s.Len() != 0 {
		t.Fatalf("equal states: %v", s.List())
	}
	// A contact between two boxes with another impulse: both bodies; a
	// ground contact missing from one side: its box alone.
	pair, ground := -1, -1
	for k, c := range b.Contacts {
		if c.B != Ground && pair < 0 {
			pair = k
		}
		if c.B == Ground && ground < 0 {
			ground = k
		}
	}
	if pair < 0 || ground < 0 {
		t.Fatal("the pile has no box-box or no ground contact")
	}
	b.Contacts[pair].Pn += 0.5
	c := b.Contacts[ground]
	b.Contacts = append(b.Contacts[:ground], b.Contacts[ground+1:]...)
	s.AddDiff(&a, &b)
	pc := a.Contacts[pair]
	if !s.Has(pc.A) || !s.Has(pc.B) || !s.Has(c.A) || s.Has(Ground) || s.Has(int32(n)) {
		t.Fatalf("set %v: want bodies %d, %d and %d", s.List(), pc.A, pc.B, c.A)
	}
	// A body state: that body.
	b.Bodies[n-1].Rest++
	s.AddDiff(&a, &b)
	if !s.Has(int32(n - 1)) {
		t.Fatalf("set %v misses the body whose rest count differs", s.List())
	}
	s.Reset(n)
	if s.Len() != 0 || s.Has(pc.A) {
		t.Fatal("Reset left bodies in")
	}
}

// TestFollowedBodyWithTorque checks the one path of liteBounds that the
// scenes do not take: a body outside the followed set whose state holds a
// torque (a state loaded between ApplyTorque and the step).
func TestFollowedBodyWithTorque(t *testing.T) {
	w := mustSwarm()
	if err := testScenes[2].run(w, 30); err != nil {
		t.Fatal(err)
	}
	var start State
	w.Save(&start)
	far := swarmCube + 5
	start.Bodies[far].Torque = Vec3{0.3, 0.1, -0.2}
	start.Bodies[far].Asleep = false
	if err := w.Restore(&start); err != nil {
		t.Fatal(err)
	}
	var tr Trace
	w.Record(&tr)
	w.Step()
	var want State
	w.Save(&want)
	// Again from start with the driven cube moved: the far box is not
	// followed, and its bounds come from liteBounds.
	moved := start
	moved.Bodies = append([]BodyState(nil), start.Bodies...)
	moved.Bodies[swarmCube].Pos.X += 0.01
	full := mustSwarm()
	if err := full.Restore(&moved); err != nil {
		t.Fatal(err)
	}
	full.Step()
	if err := w.Restore(&moved); err != nil {
		t.Fatal(err)
	}
	var s Set
	s.Reset(w.NumBodies())
	s.AddDiff(&start, &moved)
	if err := w.Follow(&s, &tr); err != nil {
		t.Fatal(err)
	}
	w.Step()
	if s.Has(int32(far)) {
		t.Fatal("the far box was followed: the test no longer reaches liteBounds' torque")
	}
	if !w.State().Equal(full.State()) {
		t.Fatalf("partial step with a torque outside the set: %v", Diff(w.State(), full.State(), 3))
	}
}

func TestFollowRefusesAnotherTick(t *testing.T) {
	w := mustArena()
	var tr Trace
	w.Record(&tr)
	w.Step()
	var s Set
	s.Reset(w.NumBodies())
	if err := w.Follow(&s, &tr); err == nil {
		t.Fatalf("a trace of tick %d followed at tick %d", tr.Tick, w.Tick())
	}
	var small Set
	small.Reset(1)
	tr.Tick = w.Tick()
	if err := w.Follow(&small, &tr); err == nil {
		t.Fatal("a set of 1 body followed in a world of more")
	}
}

func TestCancelAmendCopy(t *testing.T) {
	w := mustArena()
	var tr, other Trace
	w.Record(&tr)
	w.Cancel()
	w.Step()
	if len(tr.Bodies) != 0 || tr.Tick != 0 {
		t.Fatalf("a cancelled record was written: %+v", tr)
	}
	if err := push(w, arenaCube, posZ); err != nil {
		t.Fatal(err)
	}
	w.Record(&tr)
	w.Step()
	// A rule that moves a body the step changed, after it: Amend takes it in.
	b := w.Body(arenaCube)
	b.Pos.Y += 0.001
	if err := w.SetMotion(arenaCube, b.Pos, b.Rot, b.Vel, b.AngVel); err != nil {
		t.Fatal(err)
	}
	w.Amend(&tr)
	found := false
	for k, i := range tr.Bodies {
		if int(i) == arenaCube {
			found = tr.States[k] == w.Body(arenaCube)
		}
	}
	if !found {
		t.Fatal("Amend did not take the driven cube's new state")
	}
	other.CopyFrom(&tr)
	if err := traceEqual(&other, &tr); err != nil {
		t.Fatal(err)
	}
}
