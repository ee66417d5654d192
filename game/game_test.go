package game

import (
	"strings"
	"testing"

	"github.com/cubelab/cube/physics"
)

func TestEverySceneBuilds(t *testing.T) {
	want := map[string]int{"arena": 8, "cubes": 901, "pyramid": 56, "stack": 11, "drop": 1000}
	for _, name := range Names() {
		w, sc, err := Build(name, physics.DefaultConfig(), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := w.NumBodies(); n != want[name] {
			t.Errorf("%s: %d bodies, want %d", name, n, want[name])
		}
		if len(sc.Players) != 1 || w.Static(sc.Players[0]) {
			t.Errorf("%s: players %v", name, sc.Players)
		}
		if About(name) == "" {
			t.Errorf("%s has no description", name)
		}
	}
}

func TestBadOptionsAreRefused(t *testing.T) {
	cfg := physics.DefaultConfig()
	for _, c := range []struct {
		name string
		o    Options
		want string
	}{
		{"nowhere", Options{}, "no scene"},
		{"arena", Options{Players: 9}, "want 1 to 8"},
		{"arena", Options{Players: -1}, "want 1 to 8"},
		{"arena", Options{Bodies: 10}, "fixed number of bodies"},
		{"drop", Options{Bodies: 5000}, "want 1 to 4096"},
		{"drop", Options{Bodies: 2, Players: 3}, "want 3 to 4096"},
	} {
		if _, _, err := Build(c.name, cfg, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: got %v, want %q", c.name, c.o, err, c.want)
		}
	}
}

// TestDropLayoutIsThePeers checks positions worked out by hand from the
// drop benchmark's formula (see buildDrop), which the other engines use.
func TestDropLayoutIsThePeers(t *testing.T) {
	w, _, err := Build("drop", physics.DefaultConfig(), Options{Bodies: 250})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		i    int
		want physics.Vec3
	}{
		{0, physics.Vec3{X: -6, Y: 1, Z: -6}},
		{9, physics.Vec3{X: 4.8, Y: 1, Z: -6}},         // 9*1.2 - 6
		{123, physics.Vec3{X: -2.39, Y: 2.5, Z: -3.6}}, // layer 1, k 23
		{249, physics.Vec3{X: 4.82, Y: 4, Z: -1.2}},    // layer 2, k 49
	} {
		p := w.Body(c.i).Pos
		if d := p.Sub(c.want); d.Len() > 1e-12 {
			t.Errorf("cube %d at %v, want %v", c.i, p, c.want)
		}
	}
}

func TestIdentityTellsScenesApart(t *testing.T) {
	cfg := physics.DefaultConfig()
	seen := map[uint64]string{}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"arena", Options{}}, {"arena", Options{Players: 2}}, {"cubes", Options{}}, {"pyramid", Options{}},
		{"stack", Options{}}, {"drop", Options{}}, {"drop", Options{Bodies: 999}},
	} {
		_, sc, err := Build(c.name, cfg, c.o)
		if err != nil {
			t.Fatal(err)
		}
		key := sc.ID.String()
		if other, ok := seen[sc.ID.Hash]; ok {
			t.Errorf("%s and %s share the identity hash", key, other)
		}
		seen[sc.ID.Hash] = key
		_, again, _ := Build(c.name, cfg, c.o)
		if again.ID != sc.ID {
			t.Errorf("%s: two builds give %v and %v", key, sc.ID, again.ID)
		}
	}
	// The configuration is part of the identity.
	other := cfg
	other.Iterations++
	_, a, _ := Build("arena", cfg, Options{})
	_, b, _ := Build("arena", other, Options{})
	if a.ID.Hash == b.ID.Hash {
		t.Error("a different configuration gives the same identity")
	}
}

func TestJumpOnlyWhenGrounded(t *testing.T) {
	w, sc := MustBuild("arena")
	p := sc.Players[0]
	w.Step()
	vy0 := w.Body(p).Vel.Y
	if err := sc.Apply(w, 0, Jump); err != nil {
		t.Fatal(err)
	}
	if vy := w.Body(p).Vel.Y; vy != vy0+arenaRules.JumpSpeed {
		t.Fatalf("jump from the ground gave vy = %v, want %v", vy, vy0+arenaRules.JumpSpeed)
	}
	w.Step()
	w.Step()
	vy := w.Body(p).Vel.Y
	if err := sc.Apply(w, 0, Jump); err != nil {
		t.Fatal(err)
	}
	if got := w.Body(p).Vel.Y; got != vy {
		t.Fatalf("jump in the air changed vy from %v to %v", vy, got)
	}
}

func TestPushIsCappedAtMaxSpeed(t *testing.T) {
	w, sc := MustBuild("arena")
	p := sc.Players[0]
	max := arenaRules.MaxPushVel
	for i := 0; i < 100; i++ {
		if err := sc.Step1(w, Right|Back); err != nil {
			t.Fatal(err)
		}
		if v := w.Body(p).Vel; v.X > max+0.3 || v.Z > max+0.3 {
			t.Fatalf("tick %d: velocity %v beyond the push cap", i, v)
		}
	}
	if v := w.Body(p).Vel; v.X < max-0.5 {
		t.Fatalf("cube never reached the push cap: %v", v)
	}
}

func TestPushForceScalesWithMass(t *testing.T) {
	// Drop pushes body 0 (1 kg) with exactly (4, 0, 0) N, then (0, 0, -4) N:
	// the drop benchmark's rule, as the other engines run it.
	w, sc, err := Build("drop", physics.DefaultConfig(), Options{Bodies: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tick uint32
		want physics.Vec3
	}{{0, physics.Vec3{X: 4}}, {31, physics.Vec3{X: 4}}, {32, physics.Vec3{Z: -4}}, {63, physics.Vec3{Z: -4}}, {64, physics.Vec3{X: 4}}} {
		w.SkipTo(c.tick)
		var b physics.BodyState
		if err := sc.Apply(w, 0, sc.Script(c.tick, 0, b)); err != nil {
			t.Fatal(err)
		}
		if f := w.Body(0).Force; f != c.want {
			t.Errorf("tick %d: force %v, want %v", c.tick, f, c.want)
		}
		w.Step() // clears the force
	}
}

func TestRollTurnsTheCubeTheWayItIsPushed(t *testing.T) {
	w, sc := MustBuild("cubes")
	p := sc.Players[0]
	if err := sc.Apply(w, 0, Forward); err != nil {
		t.Fatal(err)
	}
	// A push towards -Z rolls about up × (-Z) = -X.
	b := w.Body(p)
	if b.Force.Z >= 0 || b.Torque.X >= 0 || b.Torque.Y != 0 || b.Torque.Z != 0 {
		t.Fatalf("push towards -Z: force %v, torque %v", b.Force, b.Torque)
	}
	want := mul(w.Mass(p), cubesRules.RollAccel)
	if b.Torque.X != -want {
		t.Fatalf("torque %v, want %v about -X", b.Torque.X, want)
	}
}

func TestPullDrawsNearbyCubesOnly(t *testing.T) {
	w, sc := MustBuild("cubes")
	p := sc.Players[0]
	centre := w.Body(p).Pos
	if err := sc.Apply(w, 0, Pull); err != nil {
		t.Fatal(err)
	}
	pulled := 0
	for j := 0; j < w.NumBodies(); j++ {
		if j == p {
			continue
		}
		b := w.Body(j)
		d := centre.Sub(b.Pos)
		near := d.Len() < cubesRules.PullRadius
		if got := b.Force != (physics.Vec3{}); got != near {
			t.Fatalf("cube %d at %.2f m: pulled %v", j, d.Len(), got)
		}
		if near {
			pulled++
			if b.Force.Dot(d) <= 0 {
				t.Fatalf("cube %d pulled away from the player: %v", j, b.Force)
			}
			want := mul(w.Mass(j), cubesRules.PullAccel)
			if f := b.Force.Len(); f < want*(1-1e-12) || f > want*(1+1e-12) {
				t.Fatalf("cube %d pulled with %v N, want %v", j, f, want)
			}
		}
	}
	if pulled < 10 {
		t.Fatalf("only %d cubes within the pull radius", pulled)
	}
	if f := w.Body(p).Force; f != (physics.Vec3{}) {
		t.Fatalf("the player pulled itself: %v", f)
	}
}

func TestScriptSeeksItsWaypoint(t *testing.T) {
	_, sc := MustBuild("cubes")
	// The first segment steers towards (0, 0, 6).
	if in := sc.Script(0, 0, physics.BodyState{Pos: physics.Vec3{X: 3, Z: 17}}); in != Forward|Left {
		t.Fatalf("from (3, 17): %v, want WA", in)
	}
	if in := sc.Script(0, 0, physics.BodyState{Pos: physics.Vec3{X: 0.1, Z: 6.2}}); in != 0 {
		t.Fatalf("at the waypoint: %v, want nothing", in)
	}
	if in := sc.Script(200, 0, physics.BodyState{Pos: physics.Vec3{X: 0, Z: 0}}); in != Pull {
		t.Fatalf("second segment at its waypoint: %v, want E", in)
	}
	_, st := MustBuild("stack")
	if sc := st.Script(10, 0, physics.BodyState{}); sc != 0 || st.ScriptPeriod() != 0 {
		t.Fatalf("the stack scripts input %v", sc)
	}
}

func TestInputString(t *testing.T) {
	for in, want := range map[Input]string{Forward | Jump: "WJ", 0: "-", Left | Pull: "AE", InputMask: "WASDJE"} {
		if s := in.String(); s != want {
			t.Errorf("%08b: got %q, want %q", uint8(in), s, want)
		}
	}
	if Input(0x40).Valid() || !InputMask.Valid() {
		t.Error("Valid is wrong")
	}
}

func TestAutopilotIsSeededAndStaysInTheArea(t *testing.T) {
	for _, name := range Names() {
		w, sc := MustBuild(name)
		a, b := NewAutopilot(sc, 3), NewAutopilot(sc, 3)
		c := NewAutopilot(sc, 4)
		differs := false
		body := w.Body(sc.Players[0])
		for i := 0; i < 2000; i++ {
			x, y, z := a.Input(body), b.Input(body), c.Input(body)
			if x != y {
				t.Fatalf("%s: same seed, different input at %d", name, i)
			}
			differs = differs || x != z
			ar := sc.area
			if a.target.X < ar.x0-4 || a.target.X > ar.x1+4 || a.target.Z < ar.z0-4 || a.target.Z > ar.z1+4 { // the wall and the landmarks lie just outside
				t.Fatalf("%s: target %v outside the area %+v", name, a.target, ar)
			}
		}
		if !differs {
			t.Errorf("%s: seeds 3 and 4 drive alike", name)
		}
	}
}

func TestInputForACubeOutOfTheWorldDoesNothing(t *testing.T) {
	w, sc, err := Build("arena", physics.DefaultConfig(), Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.ApplyEvent(w, Event{Kind: Leave, Player: 1}); err != nil {
		t.Fatal(err)
	}
	before := w.Body(sc.Players[1])
	for range 10 {
		if err := sc.Step(w, []Input{0, Forward | Right | Jump | Pull}); err != nil {
			t.Fatalf("an input for a cube that left: %v", err)
		}
	}
	if after := w.Body(sc.Players[1]); after.Pos != before.Pos || after.Vel != before.Vel {
		t.Fatalf("the cube out of the world moved: %+v to %+v", before, after)
	}
}
