package lab

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

func TestLabActions(t *testing.T) {
	l, err := New(session.DefaultConfig(), true, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if err := l.Act(ActSlower); err != nil {
			t.Fatal(err)
		}
	}
	if hz := l.Session().Config.SnapshotHz; hz != 1 {
		t.Fatalf("after halving ten times: %d Hz, want the floor 1", hz)
	}
	for i := 0; i < 10; i++ {
		if err := l.Act(ActFaster); err != nil {
			t.Fatal(err)
		}
	}
	if hz := l.Session().Config.SnapshotHz; hz != 64 {
		t.Fatalf("after doubling ten times: %d Hz, want the ceiling 64", hz)
	}
	if err := l.Act(ActPreset5); err != nil || l.Session().Config.Preset != "bad" {
		t.Fatalf("key 5: preset %q, %v", l.Session().Config.Preset, err)
	}
	if err := l.Act(ActCorrections); err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActRedundancy); err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActSmoothing); err != nil {
		t.Fatal(err)
	}
	c := l.Session().Client
	if c.Config.Corrections || c.Config.Redundancy || c.Smooth.Enabled {
		t.Fatal("toggles did not switch off")
	}
	// A reset keeps the settings and starts a new session at tick 0.
	for i := 0; i < 30; i++ {
		if err := l.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	if l.Session().Now() == 0 {
		t.Fatal("frames did not advance the session")
	}
	if err := l.Act(ActReset); err != nil {
		t.Fatal(err)
	}
	if l.Session().Now() != 0 || l.Session().Config.Preset != "bad" || l.Session().Client.Config.Corrections {
		t.Fatal("reset lost the settings or the time")
	}
	// Pause stops ticks; the step key runs exactly one.
	if err := l.Act(ActPause); err != nil {
		t.Fatal(err)
	}
	if err := l.Frame(1); err != nil {
		t.Fatal(err)
	}
	if l.Session().Now() != 0 {
		t.Fatal("paused lab ticked")
	}
	if err := l.Act(ActStep); err != nil {
		t.Fatal(err)
	}
	if l.Session().Now() != l.Session().TickDuration() {
		t.Fatalf("step while paused: %v, want one tick", l.Session().Now())
	}
}

func TestHUDShowsWhatTheIssueAsks(t *testing.T) {
	l, err := New(session.DefaultConfig(), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	l.SetKeys(game.Forward)
	for i := 0; i < 60; i++ {
		if err := l.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	hud := strings.Join(l.HUD(), "\n")
	for _, want := range []string{"good", "one-way 40ms", "±6ms", "loss 0.2%", "RTT 80ms", "state sync", "64 Hz", "tick ", "acked ", "in flight",
		"lead ", "buffer ", "aim ", "late ", "kbit/s", "B/pkt", "bodies",
		"corrections", "/s)", "ticks replayed", " of 8 bodies  ", " ms  ", "error", "offset", "T sync test off", "up ", "down ", "frame ", "fps",
		"corrections on", "smoothing on", "redundancy on", "server on", "snapshot on", "predicted off"} {
		if !strings.Contains(hud, want) {
			t.Errorf("HUD lacks %q:\n%s", want, hud)
		}
	}
	if z := l.Session().Client.World().Body(0).Pos.Z; z >= 0 {
		t.Fatalf("holding W did not move the cube towards -Z: z = %v", z)
	}
}

func TestInjectedNondeterminismRaisesTheBanner(t *testing.T) {
	l, err := New(session.DefaultConfig(), true, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200 && l.Desync == ""; i++ {
		if err := l.Frame(1.0 / 30); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.HasPrefix(l.Desync, "DESYNC at tick 101") {
		t.Fatalf("banner %q, want DESYNC at tick 101", l.Desync)
	}
}

func TestEveryKeyHasHelp(t *testing.T) {
	help := strings.Join(HelpLines(), "\n")
	for _, k := range []string{"W A S D", "Space", "E\t", "1 to 7", "[ ]", "C\t", "M\t", "R\t", "Y\t", "B\t", "V\t", "K\t", "N\t", "P\t", ".\t",
		"Backspace", "Home\t", "Tab\t", "F12", "F1 or H", "Esc", "mouse drag", "wheel"} {
		if !strings.Contains(help, k) {
			t.Errorf("help lacks %q", k)
		}
	}
}

// hudLine returns the HUD line that holds want, or "".
func hudLine(l *Lab, want string) string {
	for _, s := range l.HUD() {
		if strings.Contains(s, want) {
			return s
		}
	}
	return ""
}

func TestHUDRatesAreOverTheLastSecond(t *testing.T) {
	l, err := New(session.DefaultConfig(), true, 0)
	if err != nil {
		t.Fatal(err)
	}
	run := func(seconds float64) {
		for i := 0; i < int(seconds*64); i++ {
			if err := l.Frame(1.0 / 64); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(3)
	fast := l.Session().Meter.Rates().DownKbps
	for l.Session().Config.SnapshotHz > 1 {
		if err := l.Act(ActSlower); err != nil {
			t.Fatal(err)
		}
	}
	run(2)
	slow := l.Session().Meter.Rates().DownKbps
	// One snapshot a second instead of 64: the rate over the last second
	// falls to about a 64th; an average since the start would still be
	// above half of it.
	if fast < 10 || slow > fast/20 {
		t.Errorf("down %.1f kbit/s at 64 Hz, then %.1f kbit/s after 2 s at 1 Hz; want about a 64th", fast, slow)
	}
	want := fmt.Sprintf("down %.1f kbit/s", slow)
	if line := hudLine(l, "down "); !strings.Contains(line, want) {
		t.Errorf("HUD line %q does not show the last second's rate %q", line, want)
	}
	if line := hudLine(l, "last second"); !strings.Contains(line, "up ") {
		t.Errorf("HUD line %q does not say the rates are of the last second", line)
	}
}

func TestQuietResyncsAreNotDrawnAsCorrections(t *testing.T) {
	// One-ulp differences are far below the visible thresholds: the client
	// rewinds quietly (a resync), never a correction.
	l, err := New(session.DefaultConfig(), true, 50)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6*64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	st := l.Session().Client.Stats
	if st.Resyncs == 0 || st.Corrections != 0 {
		t.Fatalf("%d resyncs, %d corrections; the test needs resyncs only", st.Resyncs, st.Corrections)
	}
	var fixes, syncs int
	for _, s := range l.Samples {
		switch s.Mark {
		case MarkCorrection:
			fixes++
		case MarkResync:
			syncs++
		}
	}
	if fixes != 0 || syncs == 0 {
		t.Errorf("graph has %d correction marks and %d resync marks, want 0 and some", fixes, syncs)
	}
	// A nudge makes a real correction, marked as one.
	if err := l.Act(ActNudge); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	fixes = 0
	for _, s := range l.Samples {
		if s.Mark == MarkCorrection {
			fixes++
		}
	}
	if l.Session().Client.Stats.Corrections == 0 || fixes == 0 {
		t.Errorf("after a nudge: %d corrections, %d marks", l.Session().Client.Stats.Corrections, fixes)
	}
}

func TestHUDShowsRejectedAndUnverified(t *testing.T) {
	cfg := session.DefaultConfig()
	l, err := New(cfg, true, 40)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActPreset1); err != nil { // perfect: the garbage below is not lost
		t.Fatal(err)
	}
	if err := l.Act(ActCorrections); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	now := l.Session().Now()
	if err := l.Session().Net.Send(now, l.Session().Conns[0].Peer(), []byte{0xde, 0xad}); err != nil {
		t.Fatal(err)
	}
	if err := l.Session().Conns[0].Send(now, []byte{0xbe, 0xef, 0}); err != nil {
		t.Fatal(err)
	}
	if err := l.Session().Conns[0].Send(now, []byte{1}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3*64; i++ {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	if line := hudLine(l, "rejected"); !strings.Contains(line, "rejected: client 1  server 2") {
		t.Errorf("HUD line %q, want rejected: client 1  server 2", line)
	}
	// Corrections off and one-ulp differences: unverified mispredictions.
	n := l.Session().Client.Stats.Mispredicted[predict.KindUnverified]
	if line := hudLine(l, "unverified"); n == 0 || !strings.Contains(line, fmt.Sprintf("unverified %d", n)) {
		t.Errorf("%d unverified; HUD line %q", n, line)
	}
}

func TestNextSceneCyclesAndKeepsTheSettings(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Scene, cfg.Options.Bodies, cfg.Options.Quantize = "drop", 30, true
	l, err := New(cfg, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActPreset4); err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActSlower); err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActSmoothing); err != nil {
		t.Fatal(err)
	}
	if err := l.Act(ActServerCube); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range game.Names() {
		for i := 0; i < 10; i++ {
			if err := l.Frame(1.0 / 64); err != nil {
				t.Fatal(err)
			}
		}
		l.CameraReset = false
		if err := l.Act(ActNextScene); err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Session().Config.Scene)
		if !l.CameraReset {
			t.Errorf("scene %s: the camera was not asked to reset", l.Session().Config.Scene)
		}
		c := l.Session().Client
		if c.Tick() != 0 || l.Session().Config.Preset != "average" || l.Session().Config.SnapshotHz != 32 || c.Smooth.Enabled || l.Show.Server || !l.Session().Config.Options.Quantize {
			t.Errorf("scene %s: tick %d, preset %s, %d Hz, smoothing %v, server cube %v, quantize %v: the settings were not kept",
				l.Session().Config.Scene, c.Tick(), l.Session().Config.Preset, l.Session().Config.SnapshotHz, c.Smooth.Enabled, l.Show.Server, l.Session().Config.Options.Quantize)
		}
		if l.pilot == nil {
			t.Errorf("scene %s: the autopilot was lost", l.Session().Config.Scene)
		}
	}
	if want := "arena cubes pyramid stack drop"; strings.Join(got, " ") != want {
		t.Errorf("scenes %q, want %q", got, want)
	}
	if n := l.Session().Client.World().NumBodies(); n != 30 {
		t.Errorf("back at drop: %d bodies, want the -bodies 30 it started with", n)
	}
	// The reset-camera key asks the window; nothing else changes.
	l.CameraReset = false
	tick := l.Session().Client.Tick()
	if err := l.Act(ActResetCamera); err != nil {
		t.Fatal(err)
	}
	if !l.CameraReset || l.Session().Client.Tick() != tick {
		t.Error("reset camera: not asked, or the session changed")
	}
}

// TestSyncModeKey: I switches the session between state and input sync,
// restarting it with the other settings kept, and the HUD says which.
func TestSyncModeKey(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Scene = "pyramid"
	l, err := New(cfg, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 120; i++ {
		if err := l.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	before := l.Session()
	if err := l.Act(ActSyncMode); err != nil {
		t.Fatal(err)
	}
	if l.Session() == before || l.Session().Client.Config.Mode != predict.InputSync || l.Session().Config.Scene != "pyramid" {
		t.Fatalf("after I: new session %v, mode %v, scene %s", l.Session() != before, l.Session().Client.Config.Mode, l.Session().Config.Scene)
	}
	for i := 0; i < 120; i++ {
		if err := l.Frame(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	hud := strings.Join(l.HUD(), "\n")
	if !strings.Contains(hud, "input sync") || !strings.Contains(hud, "input sync: the session restarts") {
		t.Errorf("HUD after I:\n%s", hud)
	}
	if l.Session().Client.Stats.StatesReceived == 0 {
		t.Error("no relay taken in input sync")
	}
	if err := l.Act(ActSyncMode); err != nil {
		t.Fatal(err)
	}
	if l.Session().Client.Config.Mode != predict.StateSync {
		t.Fatalf("I twice: mode %v", l.Session().Client.Config.Mode)
	}
}

// TestSlowTicksRunInSlowMotion: when ticks cost more than the frame's
// simulation budget, a frame runs what fits (at least one tick) and drops
// the rest, and the HUD says at what share of real time the session runs.
func TestSlowTicksRunInSlowMotion(t *testing.T) {
	l, err := New(session.DefaultConfig(), true, 0)
	if err != nil {
		t.Fatal(err)
	}
	var now time.Duration
	l.local.wall = func() time.Duration { now += 30 * time.Millisecond; return now } // every reading: 30 ms later
	for f := 0; f < 40; f++ {
		before := l.Session().Now()
		if err := l.Frame(6.0 / 64); err != nil { // six ticks due a frame
			t.Fatal(err)
		}
		if ran := (l.Session().Now() - before) / l.Session().TickDuration(); ran != 2 {
			t.Fatalf("frame %d ran %d ticks; want the 2 that fit 40 ms at 30 ms each", f, ran)
		}
	}
	if line := hudLine(l, "speed"); !strings.Contains(line, "running at 3") {
		t.Fatalf("HUD %q: want the session's speed, about a third", line)
	}
	// A fast machine again: every tick due runs and the note goes.
	l.local.wall = func() time.Duration { return now }
	for f := 0; f < 60; f++ {
		if err := l.Frame(6.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	if line := hudLine(l, "speed"); line != "" {
		t.Fatalf("HUD still says %q at full speed", line)
	}
}
