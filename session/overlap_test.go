package session

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// TestOverlapKeepsTheTickOfTheDeepestState measures a world every tick:
// two cubes put 3 cm into each other at tick 5 are pushed apart in the
// ticks after, so the deepest is 3 cm, in the state labelled 5.
func TestOverlapKeepsTheTickOfTheDeepestState(t *testing.T) {
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, b := sc.Players[0], sc.Players[1]
	var o Overlap
	for w.Tick() < 12 {
		if w.Tick() == 5 {
			touching(t, w, a, b, 0.03)
		}
		o.Measure(w)
		if err := sc.Step(w, []game.Input{0, 0}); err != nil {
			t.Fatal(err)
		}
	}
	if math.Abs(o.M-0.03) > 1e-12 || o.Tick != 5 {
		t.Fatalf("deepest %v m at tick %d, want 0.03 at tick 5", o.M, o.Tick)
	}
}

// touching puts body b of w beside body a, both unit cubes, level on the
// ground, their faces across x overlapping by depth: the overlap is depth
// along x, and 0 with the ground.
func touching(t *testing.T, w *physics.World, a, b int, depth float64) {
	t.Helper()
	for _, i := range []int{a, b} {
		if h := w.Half(i); h != (physics.Vec3{X: 0.5, Y: 0.5, Z: 0.5}) {
			t.Fatalf("body %d is not a unit cube: half %v", i, h)
		}
	}
	ba, bb := w.Body(a), w.Body(b)
	ba.Rot, bb.Rot = physics.Identity, physics.Identity
	ba.Vel, ba.AngVel, bb.Vel, bb.AngVel = physics.Vec3{}, physics.Vec3{}, physics.Vec3{}, physics.Vec3{}
	ba.Pos = physics.Vec3{X: 20, Y: 0.5, Z: 20}
	bb.Pos = physics.Vec3{X: 20 + 1 - depth, Y: 0.5, Z: 20}
	if err := w.SetBody(a, ba); err != nil {
		t.Fatal(err)
	}
	if err := w.SetBody(b, bb); err != nil {
		t.Fatal(err)
	}
}

// TestRunReportsAnOverlapBuiltIn runs a session of two players whose cubes
// start 3 cm into each other (the same in the server's world and in each
// client's) at tick 1000: the server's figure, client 0's prediction and
// each player's are 3 cm at tick 1000, and the JSON has them under the
// names cube sim prints.
func TestRunReportsAnOverlapBuiltIn(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Players, cfg.StartTick = 2, 1000
	setup := func(s *Session) error {
		worlds := []*physics.World{s.Server.World()}
		for _, c := range s.Clients {
			worlds = append(worlds, c.World())
		}
		p := s.Clients[0].Scene().Players
		for _, w := range worlds {
			if w.Tick() != 1000 {
				t.Fatalf("a world starts at tick %d", w.Tick())
			}
			touching(t, w, p[0], p[1], 0.03)
		}
		return nil
	}
	_, sum, err := Run(cfg, 2, setup)
	if err != nil {
		t.Fatal(err)
	}
	want := Overlap{M: 0.03, Tick: 1000}
	same := func(what string, o Overlap) {
		if math.Abs(o.M-want.M) > 1e-12 || o.Tick != want.Tick {
			t.Errorf("%s: %+v, want %+v", what, o, want)
		}
	}
	same("server", sum.Overlap)
	if sum.Predicted == nil {
		t.Fatal("no predicted overlap in the summary")
	}
	same("client 0", *sum.Predicted)
	if len(sum.Players) != 2 {
		t.Fatalf("%d players in the summary", len(sum.Players))
	}
	for i, p := range sum.Players {
		same("player "+string(rune('0'+i)), p.Overlap)
		if p.Predicted != nil {
			t.Errorf("player %d has a predicted figure of its own: the summary is its", i)
		}
	}
	var got struct {
		M         float64 `json:"max_overlap_m"`
		Tick      uint32  `json:"max_overlap_tick"`
		Predicted struct {
			M    float64 `json:"max_overlap_m"`
			Tick uint32  `json:"max_overlap_tick"`
		} `json:"predicted"`
		Players []struct {
			M    float64 `json:"max_overlap_m"`
			Tick uint32  `json:"max_overlap_tick"`
		} `json:"players"`
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.M != sum.Overlap.M || got.Tick != 1000 || got.Predicted.Tick != 1000 || len(got.Players) != 2 || got.Players[1].M != sum.Players[1].Overlap.M || got.Players[1].Tick != 1000 {
		t.Errorf("the JSON does not carry the figures: %s", b)
	}
}
