package session

import (
	"fmt"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
)

// TestOneReplayATurnAsOneByOne runs every scene in both sync modes twice,
// three players on the bad preset with a nudge every half second: once
// with each client replaying after every message that rewinds
// (ClientConfig.ReplayEach), once with one replay a turn. Every client's
// world must have the same hash after every tick, and every client the
// same mispredictions, in the same order; and one replay a turn must have
// replayed less often, somewhere.
func TestOneReplayATurnAsOneByOne(t *testing.T) {
	var each, once uint64
	for _, scene := range game.Names() {
		for _, mode := range []predict.Mode{predict.StateSync, predict.InputSync} {
			t.Run(fmt.Sprintf("%s-%v", scene, mode), func(t *testing.T) {
				seconds := 4
				if scene == "cubes" {
					if testing.Short() {
						t.Skip("the cubes scene takes a while")
					}
					seconds = 2
				}
				cfg := presetConfig(t, "bad")
				cfg.Scene, cfg.Players, cfg.Client.Mode = scene, 3, mode
				cfg.NudgeEvery = time.Second / 2
				cfg.ClientWorkers = 1
				if scene == "drop" {
					cfg.Options.Bodies = 12
				}
				a := newTurnRun(t, cfg, true)
				b := newTurnRun(t, cfg, false)
				ticks := seconds * 64
				for k := 0; k < ticks; k++ {
					a.tick(t)
					b.tick(t)
					for i := range a.s.Clients {
						if ha, hb := a.s.Clients[i].World().Hash(), b.s.Clients[i].World().Hash(); ha != hb {
							t.Fatalf("tick %d, client %d: hash %#x replaying after each message, %#x once a turn", k, i, ha, hb)
						}
					}
				}
				if len(a.mispred) == 0 {
					t.Fatal("no misprediction: the run proves nothing")
				}
				if fmt.Sprint(a.mispred) != fmt.Sprint(b.mispred) {
					t.Errorf("mispredictions differ:\none by one %v\nonce a turn %v", a.mispred, b.mispred)
				}
				for i := range a.s.Clients {
					ra, rb := replays(a.s.Clients[i]), replays(b.s.Clients[i])
					if rb > ra {
						t.Errorf("client %d: %d replays once a turn, %d one by one", i, rb, ra)
					}
					each, once = each+ra, once+rb
				}
			})
		}
	}
	if once >= each {
		t.Errorf("%d replays once a turn, %d one by one: no turn had two", once, each)
	}
}

// replays returns the replays to the present client c made.
func replays(c *predict.Client) uint64 { return c.Stats.PartialReplays + c.Stats.FullReplays }

// turnRun is one of the two sessions TestOneReplayATurnAsOneByOne compares.
type turnRun struct {
	s       *Session
	pilots  []*game.Autopilot
	mispred []string // every client's mispredictions: client, labels, kind, corrected
}

func newTurnRun(t *testing.T, cfg Config, each bool) *turnRun {
	t.Helper()
	cfg.Client.ReplayEach = each
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &turnRun{s: s}
	for i, c := range s.Clients {
		r.pilots = append(r.pilots, game.NewAutopilot(c.Scene(), cfg.Seed+uint64(i)*0x9e37))
		c.OnMispredict = func(m *predict.Misprediction) {
			r.mispred = append(r.mispred, fmt.Sprintf("%d:%d-%d %v", i, m.From, m.Tick, m.Kind))
		}
	}
	return r
}

func (r *turnRun) tick(t *testing.T) {
	t.Helper()
	s := r.s
	err := s.Advance(s.Now()+s.TickDuration(), func(i int) game.Input {
		c := s.Clients[i]
		return r.pilots[i].Input(c.World().Body(c.Body()))
	})
	if err != nil {
		t.Fatal(err)
	}
}
