package game

import (
	"slices"
	"strings"
	"testing"

	"github.com/cubelab/cube/physics"
)

func TestBenchScenes(t *testing.T) {
	if slices.Contains(Names(), "tower") || !slices.Contains(BenchNames(), "tower") || !slices.Contains(BenchNames(), "load") {
		t.Fatalf("Names %v, BenchNames %v: the bench scenes belong to BenchNames only", Names(), BenchNames())
	}
	cfg := physics.DefaultConfig()
	w, _, err := Build("tower", cfg, Options{Bodies: 30})
	if err != nil {
		t.Fatal(err)
	}
	if n := w.NumBodies(); n != 31 {
		t.Errorf("tower of 30: %d bodies, want 31 (with the player's)", n)
	}
	if y := w.Body(30).Pos.Y; y != 29.5 {
		t.Errorf("tower of 30: top cube at y = %v, want 29.5", y)
	}
	w, _, err = Build("load", cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := w.Mass(2) / w.Mass(1); m != DefaultLoadRatio {
		t.Errorf("load: mass ratio %v, want %d", m, DefaultLoadRatio)
	}
	for _, c := range []struct {
		name string
		o    Options
	}{{"tower", Options{Bodies: MaxTowerBodies + 1}}, {"load", Options{Bodies: -1}}} {
		if _, _, err := Build(c.name, cfg, c.o); err == nil || !strings.Contains(err.Error(), "want 1 to") {
			t.Errorf("%s %+v: %v, want the range refused", c.name, c.o, err)
		}
	}
}
