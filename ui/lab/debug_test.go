package lab

import (
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/session"
)

// A frame that runs many ticks, with a nudge of the server's cube now and
// then, lights in the rewind layer every body any of its replays
// re-simulated, not only the last replay's: the cubes scene while the
// player's cube pulls the cubes into a heap, one frame of 48 ticks.
func TestRewindLayerLightsEveryReplayOfTheFrame(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Scene = "cubes"
	l, err := New(cfg, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if err := l.Tick(game.Pull | game.Forward); err != nil {
			t.Fatal(err)
		}
	}
	l.Debug.On[LayerRewind] = true
	if err := l.Frame(0); err != nil {
		t.Fatal(err)
	}
	c := l.Client()
	replayed := make([]bool, c.World().NumBodies())
	var list []int32
	_, last, _ := c.Replayed(nil)
	replays, lastLen := 0, 0
	for k := range 48 {
		if k%6 == 0 {
			if err := l.Act(ActNudge); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Tick(game.Pull | game.Forward); err != nil {
			t.Fatal(err)
		}
		var n uint64
		var full bool
		list, n, full = c.Replayed(list[:0])
		if n == last {
			continue
		}
		if full {
			t.Fatal("a full replay: want partial ones")
		}
		replays += int(n - last)
		last, lastLen = n, len(list)
		for _, b := range list {
			replayed[b] = true
		}
	}
	if err := l.Frame(0); err != nil {
		t.Fatal(err)
	}
	lit, want := 0, 0
	for b, r := range replayed {
		if r {
			want++
		}
		if (l.Debug.Heat[b] == 1) != r {
			t.Fatalf("body %d: heat %v, replayed in the frame %v", b, l.Debug.Heat[b], r)
		}
		if l.Debug.Heat[b] > 0 {
			lit++
		}
	}
	t.Logf("%d replays in the frame lit %d bodies; the last replayed %d", replays, lit, lastLen)
	if replays < 2 || want <= lastLen {
		t.Fatalf("%d replays re-simulated %d bodies, the last %d: want several replays reaching more than the last", replays, want, lastLen)
	}
}

// The HUD names the debug layers that are on, in a small window too, and
// none while every layer is off.
func TestHUDNamesTheLayersOn(t *testing.T) {
	l, err := New(session.DefaultConfig(), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, small := range []bool{false, true} {
		if small {
			l.SetWindowSize(640, 360)
		} else {
			l.SetWindowSize(1280, 720)
		}
		l.Debug.On = [NumLayers]bool{}
		if hud := strings.Join(l.HUD(), "\n"); strings.Contains(hud, "debug") {
			t.Fatalf("small %v: every layer off, the HUD says %q", small, hud)
		}
		l.Debug.On[LayerBounds], l.Debug.On[LayerVelocities] = true, true
		if hud := strings.Join(l.HUD(), "\n"); !strings.Contains(hud, "debug") || !strings.Contains(hud, "bounds velocities") {
			t.Fatalf("small %v: bounds and velocities on, the HUD says %q", small, hud)
		}
	}
}
