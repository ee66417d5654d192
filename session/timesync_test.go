package session

import (
	"math"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
)

// TestTimeSyncConverges plays the average preset, then switches to the
// bad one: within 2 s of the start and of the switch, the client's input
// buffer at the server (the running mean of what the server reports) is
// within a tick and a half of its target and stays there, and after that
// nearly no input arrives late.
func TestTimeSyncConverges(t *testing.T) {
	s, err := New(presetConfig(t, "average"))
	if err != nil {
		t.Fatal(err)
	}
	pilot := game.NewAutopilot(s.Client.Scene(), 1)
	bad, _ := netsim.PresetByName("bad")
	c := s.Client
	phase := func(from, to time.Duration) {
		t.Helper()
		worst := 0.0
		for s.Now() < to {
			if err := s.Tick(pilot.Input(c.World().Body(c.Body()))); err != nil {
				t.Fatal(err)
			}
			if s.Now() >= from+2*time.Second {
				worst = max(worst, math.Abs(c.Sync.Buffer-c.Sync.Target))
			}
		}
		if worst > 1.5 {
			t.Errorf("from %v: the buffer was %.2f ticks off its target of %.2f after 2 s", from, worst, c.Sync.Target)
		}
	}
	phase(0, 10*time.Second)
	if err := s.SetConditions(bad.Name, bad.Conditions); err != nil {
		t.Fatal(err)
	}
	phase(10*time.Second, 12*time.Second)
	lateBefore, jumps := s.Server.Stats.LateInputs, c.Sync.Jumps
	phase(10*time.Second, 20*time.Second)
	if c.Sync.Target < 2.5 {
		t.Errorf("the bad preset's jitter left the target at %.2f ticks", c.Sync.Target)
	}
	// Once converged, the bad preset's 10% loss makes an input late only
	// when every message that carries it in time is lost.
	if late := s.Server.Stats.LateInputs - lateBefore; late > 8 || c.Sync.Jumps != jumps {
		t.Errorf("from 2 s after the switch: %d late inputs, %d jumps", late, c.Sync.Jumps-jumps)
	}
}
