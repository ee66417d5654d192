package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/record"
)

// sideBySideRun is everything a run leaves that must not depend on how
// its clients' turns were scheduled.
type sideBySideRun struct {
	summary  []byte   // the Summary as JSON, every player's included
	hashes   []uint64 // each client's world, at the end
	timeline []Second
	errors   []float64 // client 0's position errors
	display  float64   // client 0's largest display move
	mispred  []string  // client 0's mispredictions, in order
	record   []byte    // the server's session record
}

// runSideBySide runs cfg for seconds with the given client workers,
// recording the server and client 0's mispredictions.
// A run stops after limit of virtual time at the latest (0: no limit),
// drained or not.
func runSideBySide(t *testing.T, cfg Config, seconds float64, limit time.Duration, workers int) sideBySideRun {
	t.Helper()
	cfg.ClientWorkers = workers
	var out sideBySideRun
	var buf bytes.Buffer
	var rec *record.Writer
	setup := func(s *Session) error {
		h := record.Header{Physics: s.Config.Physics, Scene: s.Server.Scene().ID, FullEvery: 16, Meta: "side by side"}
		s.Server.World().Save(&h.Initial)
		var err error
		if rec, err = record.NewWriter(&buf, h); err != nil {
			return err
		}
		s.Server.Recorder = rec
		if limit > 0 {
			s.Poll = func(s *Session) bool { return s.Now() >= limit }
		}
		if s.Config.Client.Mode == predict.StateSync {
			// (An input-sync client has no state to repair a desync with.)
			s.Client.Perturb = InjectNondeterminism(97)
		}
		s.Client.KeepStates = true
		s.Client.OnMispredict = func(m *predict.Misprediction) {
			out.mispred = append(out.mispred, fmt.Sprintf("%d %d %v %v %v", m.From, m.Tick, m.Kind, m.Corrected, m.Jump))
		}
		return nil
	}
	s, sum, err := Run(cfg, seconds, setup)
	if err != nil {
		t.Fatalf("%d workers: %v", workers, err)
	}
	if s.workers != clientWorkers(workers, cfg.Players) {
		t.Fatalf("%d workers asked: the session used %d", workers, s.workers)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if out.summary, err = json.Marshal(sum); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Clients {
		out.hashes = append(out.hashes, c.World().Hash())
	}
	out.timeline, out.errors, out.display, out.record = s.Timeline, s.PosErrors, s.MaxDisplay, buf.Bytes()
	return out
}

// TestClientsSideBySideAsOneAfterAnother: three players on a lossy link,
// with a nudge every second and nondeterminism injected into client 0,
// give the same summaries (every player's), final hashes, timeline,
// position errors, mispredictions and record bytes whether the clients'
// turns run one after another in time order or side by side on 2 or 3
// goroutines. Run it with -race: the side-by-side turns must share
// nothing.
func TestClientsSideBySideAsOneAfterAnother(t *testing.T) {
	for _, tc := range []struct {
		scene, preset string
		mode          predict.Mode
		seconds       float64
		limit         time.Duration // the drain cut short
		bots          int
	}{
		{"arena", "terrible", predict.StateSync, 6, 0, 0},
		{"arena", "bad", predict.InputSync, 6, 0, 0},
		{"cubes", "average", predict.StateSync, 1.5, 2 * time.Second, 0},
		{"arena", "average", predict.StateSync, 6, 0, 2}, // bots' turns side by side too
	} {
		t.Run(fmt.Sprintf("%s-%s-%v-%d", tc.scene, tc.preset, tc.mode, tc.bots), func(t *testing.T) {
			if tc.scene == "cubes" && testing.Short() {
				t.Skip("the cubes scene takes a while")
			}
			cfg := presetConfig(t, tc.preset)
			cfg.Scene, cfg.Players, cfg.Client.Mode, cfg.Bots = tc.scene, 3, tc.mode, tc.bots
			cfg.NudgeEvery = time.Second
			if tc.scene == "cubes" {
				// Unbudgeted: a repair of the cubes scene within the
				// budget outlasts this short run, and client 0 would take
				// no state to compare.
				cfg.DownBudget = 0
			}
			one := runSideBySide(t, cfg, tc.seconds, tc.limit, 1)
			if len(one.mispred) == 0 || len(one.errors) == 0 {
				t.Fatalf("a run with %d mispredictions and %d states taken by client 0 proves little", len(one.mispred), len(one.errors))
			}
			for _, workers := range []int{2, 3} {
				side := runSideBySide(t, cfg, tc.seconds, tc.limit, workers)
				if !bytes.Equal(side.summary, one.summary) {
					t.Errorf("%d workers: summary\n%s\none after another:\n%s", workers, side.summary, one.summary)
				}
				if !slices.Equal(side.hashes, one.hashes) {
					t.Errorf("%d workers: final hashes %x, one after another %x", workers, side.hashes, one.hashes)
				}
				if !slices.Equal(side.timeline, one.timeline) || !slices.Equal(side.errors, one.errors) || side.display != one.display {
					t.Errorf("%d workers: the timeline, the position errors or the display's move differ", workers)
				}
				if !slices.Equal(side.mispred, one.mispred) {
					t.Errorf("%d workers: mispredictions\n%v\none after another:\n%v", workers, side.mispred, one.mispred)
				}
				if !bytes.Equal(side.record, one.record) {
					t.Errorf("%d workers: the record differs (%d bytes, %d one after another)", workers, len(side.record), len(one.record))
				}
			}
		})
	}
}

// TestSideBySideErrorIsTheEarliest: when clients fail in the same phase,
// the session returns the error of the earliest failed turn, the one a
// run in time order would have met first, and keeps none of client 0's
// position errors from after it.
func TestSideBySideErrorIsTheEarliest(t *testing.T) {
	cfg := presetConfig(t, "good")
	cfg.Players, cfg.ClientWorkers = 3, 3
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Advance(time.Second, func(int) game.Input { return 0 }); err != nil {
		t.Fatal(err)
	}
	// Client 2 is due first, client 1 later in the same phase.
	s.clientNext[1], s.clientNext[2] = s.serverNext, s.serverNext-time.Millisecond
	s.Conns[1].Abandon()
	s.Conns[2].Abandon()
	err = s.Advance(s.now+s.tick, func(int) game.Input { return 0 })
	if err == nil || !strings.HasPrefix(err.Error(), "client 2: ") {
		t.Fatalf("error %v: want client 2's, the earliest", err)
	}
}

func TestClientWorkersRefusedBelowZero(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ClientWorkers = -1
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "client workers") {
		t.Fatalf("-1 client workers: %v", err)
	}
}
