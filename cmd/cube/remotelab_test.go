//go:build cgo

package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/cli"
	"github.com/cubelab/cube/ui/lab"
	"github.com/cubelab/cube/ui/window"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/ui/render"
)

// countBoxes counts the solid boxes of f in each colour that matters.
func countBoxes(f *render.Frame) (red, slots, server int) {
	for _, b := range f.Boxes {
		switch {
		case b.Color == window.ColorPlayer:
			red++
		case b.Color == window.ColorServer:
			server++
		default:
			for _, c := range window.SlotColors {
				if b.Color == c {
					slots++
				}
			}
		}
	}
	return
}

// TestWindowAgainstARemoteServer drives the window's lab against `cube
// server` over loopback, with a headless client as the other player.
func TestWindowAgainstARemoteServer(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	t.Parallel()
	srv := startServer(t, "-json")
	done := make(chan clientResult)
	go func() { done <- runTestClient(srv, "-seconds", "5", "-seed", "9") }()

	fs := cli.NewFlags("window", "", io.Discard)
	wf := registerWindowFlags(fs)
	if err := fs.Parse([]string{"-connect", srv.addr, "-pin", srv.pin, "-autopilot", "-preset", "lan"}); err != nil {
		t.Fatal(err)
	}
	wf.set = map[string]bool{"connect": true, "pin": true, "autopilot": true, "preset": true}
	if _, err := wf.check(); err != nil {
		t.Fatal(err)
	}
	r, err := dialWindow(wf, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	l := lab.NewRemote(r, true, 0, 1)
	if r.Preset().Name != "lan" {
		t.Errorf("preset %q, want lan", r.Preset().Name)
	}
	// The window's clock: each frame gives the lab the time since the
	// last one, waits in between included.
	last := time.Now()
	frames := func(d time.Duration, until func() bool) {
		t.Helper()
		start := time.Now()
		for time.Since(start) < d && (until == nil || !until()) {
			time.Sleep(time.Second / 60)
			now := time.Now()
			if err := l.Frame(now.Sub(last).Seconds()); err != nil {
				t.Fatal(err)
			}
			last = now
		}
	}
	frames(4*time.Second, nil)
	c := l.Client()
	if !c.Joined() || c.Stats.StatesReceived == 0 || l.Lost() != nil {
		t.Fatalf("joined %v, %d states, lost %v", c.Joined(), c.Stats.StatesReceived, l.Lost())
	}
	hud := strings.Join(l.HUD(), "\n")
	for _, want := range []string{"server " + srv.addr, "slot ", "lan on this link", "8 slots", "Y server remote", "mispredicted: input"} {
		if !strings.Contains(hud, want) {
			t.Errorf("HUD lacks %q:\n%s", want, hud)
		}
	}
	// Keys that act on the server say so; the presets set this link.
	for _, a := range []lab.Action{lab.ActNudge, lab.ActNextScene, lab.ActReset, lab.ActSlower, lab.ActPause} {
		l.Note = ""
		if err := l.Act(a); err != nil || !strings.Contains(l.Note, "in process only") {
			t.Errorf("Action %d: note %q, error %v", a, l.Note, err)
		}
	}
	if err := l.Act(lab.ActPreset3); err != nil || r.Preset().Name != "good" {
		t.Errorf("key 3: preset %q, %v", r.Preset().Name, err)
	}
	var f render.Frame
	window.BuildFrame(l, &f)
	red, slots, server := countBoxes(&f)
	if red != 1 || slots != 1 || server != 0 {
		t.Errorf("%d red cubes, %d in a slot's colour, %d server cubes; want 1, 1 (the other player) and 0", red, slots, server)
	}
	other := <-done
	other.check(t, "the other player")
	// Hands off: the cube comes to rest in step with the server.
	l.StopAutopilot()
	states := c.Stats.StatesReceived
	frames(session.MaxDrain, func() bool { return c.Settled(states) })
	if !c.Settled(states) || c.Stats.Mispredicted[predict.KindNondeterminism] != 0 {
		b := c.World().Body(c.Body())
		t.Errorf("after the drain: settled %v, mispredicted %v; states %d then %d, compared %+v, vel %v %v, tick %d, lost %v, hud:\n%s", c.Settled(states), c.Stats.Mispredicted,
			states, c.Stats.StatesReceived, c.Compared(), b.Vel, b.AngVel, c.Tick(), l.Lost(), strings.Join(l.HUD(), "\n"))
	}
	r.Close()
	time.Sleep(300 * time.Millisecond)
	m := srv.stop(t)
	if m.Players.Joined != 2 || m.Players.Left != 2 {
		t.Errorf("players %+v", m.Players)
	}
}

// TestWindowBots shows client 0 with three bots, remote players without
// a world (the window's -bots), and with three full clients
// (-full-bots): the bots' cubes are drawn in their slots' colours, the
// HUD counts them, and every bot drives its cube.
func TestWindowBots(t *testing.T) {
	for _, full := range []bool{false, true} {
		cfg := session.DefaultConfig()
		want := "3 bots"
		cfg.Bots = 3
		if full {
			cfg.Players, cfg.Bots, want = 4, 0, "3 full bots"
		}
		t.Run(want, func(t *testing.T) { windowBots(t, cfg, want) })
	}
}

func windowBots(t *testing.T, cfg session.Config, want string) {
	l, err := lab.New(cfg, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	if worlds := l.Session().Worlds; worlds != cfg.Players+1 {
		t.Errorf("%d physics worlds: want the server's and one per client, %d", worlds, cfg.Players+1)
	}
	for range 3 * 64 {
		if err := l.Frame(1.0 / 64); err != nil {
			t.Fatal(err)
		}
	}
	var f render.Frame
	window.BuildFrame(l, &f)
	red, slots, server := countBoxes(&f)
	if red != 1 || slots != 3 || server != 1 {
		t.Errorf("%d red cubes, %d in a slot's colour, %d server cubes; want 1, 3 and 1", red, slots, server)
	}
	if hud := strings.Join(l.HUD(), "\n"); !strings.Contains(hud, want) {
		t.Errorf("HUD does not count the bots:\n%s", hud)
	}
	// Every bot drives its cube.
	sc := l.Session().Server.Scene()
	w, _, err := game.Build(sc.Name, cfg.Physics, sc.Options)
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range sc.Players {
		if l.Session().Server.World().Body(b).Pos == w.Body(b).Pos {
			t.Errorf("player %d's cube has not moved", p)
		}
	}
}

func TestWindowNetworkFlags(t *testing.T) {
	pin := strings.Repeat("0", 64)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"window", "-bots", "8"}, "want 0 to 7"},
		{[]string{"window", "-bots", "2", "-input-driven"}, "needs the clocked server"},
		{[]string{"window", "-full-bots"}, "-full-bots needs -bots N"},
		{[]string{"window", "-max-players", "4"}, "are for -connect"},
		{[]string{"window", "-connect", "127.0.0.1:4242", "-pin", pin, "-record", "x.rec"}, "-record is for a session in this process"},
		{[]string{"window", "-connect", "127.0.0.1:4242", "-pin", pin, "-bots", "2"}, "-bots is for a session in this process"},
		{[]string{"window", "-connect", "127.0.0.1:4242", "-pin", pin, "-max-players", "9"}, "want 1 to 8"},
		{[]string{"window", "-connect", "192.0.2.1:4242", "-insecure"}, "only for loopback"},
		{[]string{"window", "-connect", "127.0.0.1:4242"}, "needs -pin"},
		{[]string{"window", "-connect", "127.0.0.1:4242", "-pin", pin, "-insecure"}, "exclude each other"},
		{[]string{"window", "-scene", "drop", "-bodies", "3", "-bots", "3"}, "fewer than the 4 player cubes"},
		{[]string{"sim", "-scene", "drop", "-bodies", "3", "-players", "4"}, "fewer than the 4 player cubes"},
		{[]string{"window", "-report-dir", "/nonexistent-cube-dir"}, "-report-dir /nonexistent-cube-dir"},
	}
	for _, c := range cases {
		code, out, errs := runCube(c.args...)
		oneLine(t, strings.Join(c.args, " "), code, 2, out, errs, c.want)
	}
}
