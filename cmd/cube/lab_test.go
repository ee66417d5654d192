package main

import (
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
)

func TestLabActions(t *testing.T) {
	l, err := newLab(predict.DefaultSessionConfig(), true, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if err := l.act(actSlower); err != nil {
			t.Fatal(err)
		}
	}
	if hz := l.sess.Config.SnapshotHz; hz != 1 {
		t.Fatalf("after halving ten times: %d Hz, want the floor 1", hz)
	}
	for i := 0; i < 10; i++ {
		_ = l.act(actFaster)
	}
	if hz := l.sess.Config.SnapshotHz; hz != 64 {
		t.Fatalf("after doubling ten times: %d Hz, want the ceiling 64", hz)
	}
	if err := l.act(actPreset5); err != nil || l.sess.Config.Preset != "bad" {
		t.Fatalf("key 5: preset %q, %v", l.sess.Config.Preset, err)
	}
	_ = l.act(actCorrections)
	_ = l.act(actRedundancy)
	_ = l.act(actSmoothing)
	c := l.sess.Client
	if c.Config.Corrections || c.Config.Redundancy || c.Smooth.Enabled {
		t.Fatal("toggles did not switch off")
	}
	// A reset keeps the settings and starts a new session at tick 0.
	for i := 0; i < 30; i++ {
		if err := l.frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if l.sess.Now() == 0 {
		t.Fatal("frames did not advance the session")
	}
	_ = l.act(actReset)
	if l.sess.Now() != 0 || l.sess.Config.Preset != "bad" || l.sess.Client.Config.Corrections {
		t.Fatal("reset lost the settings or the time")
	}
	// Pause stops ticks; the step key runs exactly one.
	_ = l.act(actPause)
	_ = l.frame(1)
	if l.sess.Now() != 0 {
		t.Fatal("paused lab ticked")
	}
	_ = l.act(actStep)
	if l.sess.Now() != l.sess.TickDuration() {
		t.Fatalf("step while paused: %v, want one tick", l.sess.Now())
	}
}

func TestHUDShowsWhatTheIssueAsks(t *testing.T) {
	l, err := newLab(predict.DefaultSessionConfig(), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	l.setKeys(game.Forward)
	for i := 0; i < 60; i++ {
		_ = l.frame(1.0 / 60)
	}
	hud := strings.Join(l.hud(), "\n")
	for _, want := range []string{"good", "one-way 40ms", "±6ms", "loss 0.2%", "RTT 80ms", "snapshots 64 Hz", "tick ", "acked ", "in flight",
		"corrections", "/s)", "ticks replayed", "error", "smoothing offset", "up ", "down ", "frame ", "fps",
		"corrections on", "smoothing on", "redundancy on", "server on", "snapshot on", "predicted off"} {
		if !strings.Contains(hud, want) {
			t.Errorf("HUD lacks %q:\n%s", want, hud)
		}
	}
	if z := l.sess.Client.World().Body(0).Pos.Z; z >= 0 {
		t.Fatalf("holding W did not move the cube towards -Z: z = %v", z)
	}
}

func TestInjectedNondeterminismRaisesTheBanner(t *testing.T) {
	l, err := newLab(predict.DefaultSessionConfig(), true, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200 && l.desync == ""; i++ {
		_ = l.frame(1.0 / 30)
	}
	if !strings.HasPrefix(l.desync, "DESYNC at tick 101") {
		t.Fatalf("banner %q, want DESYNC at tick 101", l.desync)
	}
}

func TestEveryKeyHasHelp(t *testing.T) {
	help := strings.Join(helpLines(), "\n")
	for _, k := range []string{"W A S D", "Space", "1 to 7", "[ ]", "C\t", "M\t", "R\t", "Y\t", "B\t", "V\t", "K\t", "P\t", ".\t", "Backspace", "F12", "F1 or H", "Esc"} {
		if !strings.Contains(help, k) {
			t.Errorf("help lacks %q", k)
		}
	}
}
