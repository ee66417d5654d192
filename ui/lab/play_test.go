package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
)

// Both plays are plays.
var (
	_ Play = (*Local)(nil)
	_ Play = (*Remote)(nil)
)

// fakePlay is a play with a client and no server: it records what the
// lab asks of it.
type fakePlay struct {
	c      *predict.Client
	runs   int
	frames float64 // seconds of display moved on
	preset string
	inputs []game.Input
}

func (f *fakePlay) Client() *predict.Client { return f.c }
func (f *fakePlay) Now() time.Duration      { return time.Duration(f.runs) * time.Second / 64 }
func (f *fakePlay) Run(elapsed float64, in func() game.Input, after func()) error {
	f.runs++
	f.inputs = append(f.inputs, in())
	after()
	return nil
}
func (f *fakePlay) Frame(elapsed float64)             { f.frames += elapsed }
func (f *fakePlay) Display() (mgl64.Vec3, mgl64.Quat) { return session.DisplayPose(f.c) }
func (f *fakePlay) Rates() session.Rates              { return session.Rates{DownKbps: 12.5} }
func (f *fakePlay) SetPreset(p netsim.Preset) error   { f.preset = p.Name; return nil }
func (f *fakePlay) Status(compact bool) []string      { return []string{"fake link"} }
func (f *fakePlay) Late() uint64                      { return 7 }
func (f *fakePlay) Rejected() string                  { return "rejected: fake" }
func (f *fakePlay) ServerCube(int) (physics.BodyState, bool) {
	return physics.BodyState{}, false
}
func (f *fakePlay) Speed() (recent, total float64, ok bool) { return 0.5, 0.25, true }
func (f *fakePlay) Lost() error                             { return nil }

// TestLabTalksToItsPlayOnly: the lab's frames, keys and HUD go through
// the Play interface: paused frames move the display but run no tick, the
// preset keys set the play's link, the server's keys are refused with a
// note, and the HUD shows the play's lines and figures.
func TestLabTalksToItsPlayOnly(t *testing.T) {
	s, err := session.New(session.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	f := &fakePlay{c: s.Client}
	l := &Lab{play: f}
	l.SetKeys(game.Forward)
	if err := l.Frame(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	if f.runs != 1 || f.inputs[0] != game.Forward || f.frames != 1.0/60 {
		t.Fatalf("a frame: %d runs with inputs %v, display moved %v s", f.runs, f.inputs, f.frames)
	}
	l.Paused = true
	if err := l.Frame(1.0 / 60); err != nil {
		t.Fatal(err)
	}
	if f.runs != 1 || f.frames != 2.0/60 {
		t.Errorf("a paused frame: %d runs (want 1), display moved %v s (want 2/60)", f.runs, f.frames)
	}
	if err := l.Act(ActPreset3); err != nil || f.preset != "good" {
		t.Errorf("key 3: preset %q, %v", f.preset, err)
	}
	if err := l.Act(ActNudge); err != nil || !strings.Contains(l.Note, "K (nudge): in process only") {
		t.Errorf("K against a play without a server here: note %q, %v", l.Note, err)
	}
	hud := l.HUD()
	if hud[0] != "fake link" {
		t.Errorf("HUD starts %q, want the play's status", hud[0])
	}
	want := []string{"late 7", "rejected: fake", "PAUSED", "Y server remote"}
	for _, w := range want {
		if !strings.Contains(strings.Join(hud, "\n"), w) {
			t.Errorf("HUD lacks %q:\n%s", w, strings.Join(hud, "\n"))
		}
	}
	l.Paused = false
	if got := l.runState(); got != "running at 50% speed" {
		t.Errorf("run state %q, want the play's recent speed", got)
	}
	if got := l.PaceNote(); got != ", speed 25%" {
		t.Errorf("closing note %q, want the play's speed since the start", got)
	}
}
