package netsim

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestPairDirectionsDiffer(t *testing.T) {
	c := Conditions{Latency: 50 * ms, Jitter: 20 * ms, Loss: 0.2}
	p, err := NewPair(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	up := stream(t, p.Up, 5000, 5*ms)
	down := stream(t, p.Down, 5000, 5*ms)
	if slices.Equal(up, down) {
		t.Fatal("Up and Down drew the same stream")
	}
	q, _ := NewPair(c, 1)
	if !slices.Equal(up, stream(t, q.Up, 5000, 5*ms)) || !slices.Equal(down, stream(t, q.Down, 5000, 5*ms)) {
		t.Fatal("one seed gave two different pairs")
	}
	p.Reset()
	if !slices.Equal(up, stream(t, p.Up, 5000, 5*ms)) {
		t.Fatal("Pair.Reset did not rewind Up")
	}
}

func TestPairSetConditions(t *testing.T) {
	p, err := NewPair(Conditions{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	avg, _ := PresetByName("average")
	if err := p.SetConditions(avg.Conditions); err != nil {
		t.Fatal(err)
	}
	if p.Up.Conditions() != avg.Conditions || p.Down.Conditions() != avg.Conditions {
		t.Fatal("SetConditions did not reach both directions")
	}
	if err := p.SetConditions(Conditions{Jitter: -time.Second}); err == nil {
		t.Fatal("invalid conditions accepted")
	}
	if err := p.SetConditions(Conditions{Loss: math.NaN()}); err == nil {
		t.Fatal("invalid conditions accepted")
	}
	if p.Up.Conditions() != avg.Conditions || p.Down.Conditions() != avg.Conditions {
		t.Fatal("a refused SetConditions changed a direction")
	}
}
