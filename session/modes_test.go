package session

import (
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/server"
)

// The switches a user can turn, in the window, on the command line or in
// a Config, each with its values. Every two of them are tried
// together (pairwise): the classifier once called a disagreement
// nondeterminism only because corrections were off, and no test had
// tried that mode.
var switches = []struct {
	name   string
	values []string
	set    func(c *Config, v int)
}{
	{"preset", presetNames(), func(c *Config, v int) {
		p := netsim.Presets()[v]
		c.Preset, c.Conditions = p.Name, p.Conditions
	}},
	{"sync", []string{"state", "inputs"}, func(c *Config, v int) { c.Client.Mode = []predict.Mode{predict.StateSync, predict.InputSync}[v] }},
	{"server", []string{"clocked", "input-driven", "input-driven-repeat"}, func(c *Config, v int) {
		c.Clocked = v == 0
		if v == 2 {
			c.Missing = server.RepeatLast
		}
	}},
	{"scene", []string{"arena", "pyramid"}, func(c *Config, v int) { c.Scene = []string{"arena", "pyramid"}[v] }},
	{"quantize", []string{"off", "on"}, func(c *Config, v int) { c.Options.Quantize = v == 1 }},
	{"corrections", []string{"on", "off"}, func(c *Config, v int) { c.Client.Corrections = v == 0 }},
	{"redundancy", []string{"on", "off"}, func(c *Config, v int) { c.Client.Redundancy = v == 0 }},
	{"smoothing", []string{"on", "off"}, func(c *Config, v int) { c.Smoothing = v == 0 }},
	{"quiet-resync", []string{"on", "off"}, func(c *Config, v int) { c.Client.QuietResync = v == 0 }},
	{"players", []string{"1", "3"}, func(c *Config, v int) { c.Players = []int{1, 3}[v] }},
	{"snapshot-hz", []string{"64", "16"}, func(c *Config, v int) { c.SnapshotHz = []int{64, 16}[v] }},
}

func presetNames() []string {
	var s []string
	for _, p := range netsim.Presets() {
		s = append(s, p.Name)
	}
	return s
}

// modeRows returns the pairwise rows of switches: several players need the
// clocked server.
func modeRows() [][]int {
	fs := make([]factor, len(switches))
	for i, s := range switches {
		fs[i] = factor{s.name, len(s.values)}
	}
	allowed := func(row []int) bool { return !(row[9] == 1 && row[2] != 0) }
	return pairwise(fs, allowed, 11)
}

// modeConfig returns the session config of a row, and its name.
func modeConfig(t *testing.T, row []int) (Config, string) {
	cfg := DefaultConfig()
	var name []string
	for i, s := range switches {
		s.set(&cfg, row[i])
		name = append(name, s.name+"="+s.values[row[i]])
	}
	if switches[9].name != "players" || switches[2].name != "server" {
		t.Fatal("modeRows's constraint names the wrong switches")
	}
	return cfg, strings.Join(name, " ")
}

// TestPairwiseCoversEveryPair checks the covering array against a count
// of its own: every pair of values of two switches that the constraint
// allows is in some row, and no row breaks the constraint.
func TestPairwiseCoversEveryPair(t *testing.T) {
	rows := modeRows()
	for _, row := range rows {
		if row[9] == 1 && row[2] != 0 {
			t.Fatalf("row %v: several players on an input-driven server", row)
		}
	}
	for a := range switches {
		for b := a + 1; b < len(switches); b++ {
			for la := range switches[a].values {
				for lb := range switches[b].values {
					if a == 2 && b == 9 && la != 0 && lb == 1 {
						continue // not allowed
					}
					found := false
					for _, row := range rows {
						if row[a] == la && row[b] == lb {
							found = true
							break
						}
					}
					if !found {
						t.Errorf("no row has %s=%s with %s=%s", switches[a].name, switches[a].values[la], switches[b].name, switches[b].values[lb])
					}
				}
			}
		}
	}
	if len(rows) > 40 {
		t.Errorf("%d rows: the greedy cover is poor", len(rows))
	}
}

// TestEveryModeTogether runs each pairwise row twice for 20 s. First with
// server nudges and nothing injected: no client may report nondeterminism;
// with corrections and quiet resyncs on every client ends with the
// server's state; with corrections off client 0's drift is called
// unverified. Then with an ulp injected into client 0's cube every 500
// ticks and no nudges: every nondeterminism client 0 reports covers an
// injection, no other client reports any, and with corrections and quiet
// resyncs on client 0 finds it.
//
// With either off a client stays off the server's bits after its first
// misprediction of any kind (its own inputs lost, another player's, a
// difference below the thresholds), and a difference found from a state
// that was not the server's is unverified, not nondeterminism: then the
// injection is found only if nothing else went wrong first, which on a
// lossy link or with other players moving is rare.
func TestEveryModeTogether(t *testing.T) {
	for _, row := range modeRows() {
		cfg, name := modeConfig(t, row)
		strict := cfg.Client.Corrections && cfg.Client.QuietResync
		t.Run(name, func(t *testing.T) {
			clean := cfg
			clean.NudgeEvery = 2 * time.Second
			_, sum, err := Run(clean, 20, nil)
			if err != nil {
				t.Fatal(err)
			}
			players := sum.Players
			if len(players) == 0 {
				players = []Summary{sum}
			}
			if sum.Rejected != 0 {
				t.Errorf("%d messages rejected", sum.Rejected)
			}
			for i, p := range players {
				if p.Mispredictions.Nondeterminism != 0 {
					t.Errorf("client %d: nondeterminism %d without any injected", i, p.Mispredictions.Nondeterminism)
				}
				if strict && !p.Final.InSync {
					t.Errorf("client %d: not in sync at the end: %+v", i, p.Final)
				}
			}
			if !cfg.Client.Corrections && sum.Mispredictions.Unverified == 0 {
				t.Errorf("corrections off but nothing unverified: %+v", sum.Mispredictions)
			}
			// On the worst links another cause in the same span comes
			// first (a relay reports the earliest tick it changes).
			if sum.Mispredictions.Server == 0 && cfg.Preset != "outage" && cfg.Preset != "terrible" {
				t.Errorf("the nudges were never seen: %+v", sum.Mispredictions)
			}

			const every = 500
			var found []predict.Misprediction
			_, isum, err := Run(cfg, 20, func(s *Session) error {
				s.Client.Perturb = InjectNondeterminism(every)
				s.Client.OnMispredict = func(m *predict.Misprediction) {
					if m.Kind == predict.KindNondeterminism {
						found = append(found, *m)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strict && len(found) == 0 {
				t.Fatalf("the ulps injected every %d ticks were never found: %+v", every, isum.Mispredictions)
			}
			for _, m := range found {
				// The state labelled k*every+1 is the first that differs.
				k := (m.Tick - 1) / every * every
				if k == 0 || m.From > k {
					t.Errorf("nondeterminism at %d (since %d) covers no injection", m.Tick, m.From)
				}
			}
			for i, p := range isum.Players {
				if i > 0 && p.Mispredictions.Nondeterminism != 0 {
					t.Errorf("client %d, not perturbed: nondeterminism %d", i, p.Mispredictions.Nondeterminism)
				}
			}
		})
	}
}
