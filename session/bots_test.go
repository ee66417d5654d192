package session

import (
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
)

// TestRemoteBots plays client 0 with three bots, remote players without a
// world, for twenty seconds on the average preset, in both sync modes.
// The session must build no world for a bot, client 0 must end with the
// server's state, and the server must apply the bots' inputs: nearly
// every tick since each joined with its own input, few repeated or late.
func TestRemoteBots(t *testing.T) {
	for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
		cfg := presetConfig(t, "average")
		cfg.Bots = 3
		cfg.Client.Mode = mode
		s, sum, err := Run(cfg, 20, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Worlds != 2 || len(s.Clients) != 1 || len(s.Bots) != 3 {
			t.Fatalf("%v: %d worlds, %d clients, %d bots: want the server's and client 0's only", mode, s.Worlds, len(s.Clients), len(s.Bots))
		}
		if p := sum; !p.Final.InSync || p.Mispredictions.Nondeterminism != 0 {
			t.Errorf("%v: client 0 final %+v, mispredictions %+v", mode, p.Final, p.Mispredictions)
		}
		if sum.Mispredictions.Remote == 0 {
			t.Errorf("%v: client 0 never mispredicted another player: the bots did not move", mode)
		}
		if sum.Server == nil || sum.Server.Rejected != 0 {
			t.Fatalf("%v: server summary %+v: want one, with nothing rejected", mode, sum.Server)
		}
		for k, b := range s.Bots {
			if !b.Joined() {
				t.Fatalf("%v: bot %d never joined", mode, k)
			}
			ps, ok := s.Server.PlayerStats(b.Slot())
			if !ok {
				t.Fatalf("%v: the server has no player in bot %d's slot %d", mode, k, b.Slot())
			}
			ticks := ps.Applied + ps.Repeated
			if ticks < 1000 || float64(ps.Repeated) > 0.02*float64(ticks) || float64(ps.Late) > 0.01*float64(ticks) {
				t.Errorf("%v: bot %d: the server applied %d of its inputs, repeated %d, %d came late", mode, k, ps.Applied, ps.Repeated, ps.Late)
			}
			if ps.UnknownViews != 0 || ps.Rejected != 0 {
				t.Errorf("%v: bot %d: the server did not know %d views it acknowledged, rejected %d of its messages", mode, k, ps.UnknownViews, ps.Rejected)
			}
			if b.Stats.Rejected != 0 || b.Stats.StatesReceived == 0 {
				t.Errorf("%v: bot %d: stats %+v", mode, k, b.Stats)
			}
			if p95 := ps.DepthP95; p95 < 1 || p95 > 4 {
				t.Errorf("%v: bot %d: input buffer p95 %v ticks, want 1 to 4: time sync keeps it ahead", mode, k, p95)
			}
		}
	}
}

// TestBotCountsAsPlayer checks that players and bots share the scene's
// slots: the session refuses more of them than a scene holds.
func TestBotCountsAsPlayer(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Players, cfg.Bots = 2, 7
	if _, err := New(cfg); err == nil {
		t.Fatal("a session of 2 players and 7 bots was built: want at most 8 in all")
	}
}

// TestBotsFollowThePreset: a preset set during the session (the window's
// keys 1 to 7) is every bot's link too. From the perfect preset to the bad
// one (250 ms one way), a bot's lead on the server grows by the ticks the
// longer trip takes, and the server again applies its inputs on time.
func TestBotsFollowThePreset(t *testing.T) {
	cfg := presetConfig(t, "perfect")
	cfg.Bots = 2
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pilots := []*game.Autopilot{game.NewAutopilot(s.Server.Scene(), 1), game.NewAutopilot(s.Server.Scene(), 2)}
	run := func(to time.Duration) {
		t.Helper()
		if err := s.Advance(to, func(i int) game.Input {
			if k := i - len(s.Clients); k >= 0 {
				return s.BotInput(k, pilots[k])
			}
			return 0
		}); err != nil {
			t.Fatal(err)
		}
	}
	lead := func(k int) int32 { return int32(s.Bots[k].Tick() - s.Server.Tick()) }
	run(3 * time.Second)
	before := []int32{lead(0), lead(1)}
	bad, _ := netsim.PresetByName("bad")
	if err := s.SetConditions(bad.Name, bad.Conditions); err != nil {
		t.Fatal(err)
	}
	run(6 * time.Second)
	late := make([]uint64, len(s.Bots))
	for k, b := range s.Bots {
		ps, _ := s.Server.PlayerStats(b.Slot())
		late[k] = ps.Late
	}
	run(12 * time.Second)
	for k, b := range s.Bots {
		// 250 ms is 16 ticks; the jitter adds to the buffer aimed for.
		if l := lead(k); l-before[k] < 14 {
			t.Errorf("bot %d: lead %d ticks on the perfect preset, %d on the bad one: want 14 more", k, before[k], l)
		}
		ps, _ := s.Server.PlayerStats(b.Slot())
		if n := ps.Late - late[k]; n > 8 {
			t.Errorf("bot %d: %d inputs late from 3 s after the switch", k, n)
		}
	}
}
