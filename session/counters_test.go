package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cubelab/cube/predict"
)

// TestSummaryRefreshesAndDeferred: cube sim's summary and JSON carry each
// client's refreshes and snapshots held for their relays. With eight
// players on state sync (5 s, average) every client refreshes and holds
// some; a single player in the arena gets no relay, so none of either.
func TestSummaryRefreshesAndDeferred(t *testing.T) {
	cfg := presetConfig(t, "average")
	cfg.Players = 8
	cfg.Client.Mode = predict.StateSync
	_, sum, err := Run(cfg, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Players) != 8 {
		t.Fatalf("%d players in the summary, want 8", len(sum.Players))
	}
	for i, p := range sum.Players {
		if p.Refreshes == 0 || p.Deferred == 0 {
			t.Errorf("player %d: %d refreshes, %d held, want both above 0", i, p.Refreshes, p.Deferred)
		}
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"refreshes":`, `"deferred_snapshots":`, `"unrelayed_snapshots":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("the JSON has no %s", key)
		}
	}
	if sum.Refreshes != sum.Players[0].Refreshes || sum.Deferred != sum.Players[0].Deferred {
		t.Errorf("the run's summary (client 0) says %d refreshes, %d held; player 0 %d, %d", sum.Refreshes, sum.Deferred, sum.Players[0].Refreshes, sum.Players[0].Deferred)
	}

	cfg = presetConfig(t, "average")
	cfg.Client.Mode = predict.StateSync
	_, one, err := Run(cfg, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if one.Scene != "arena" || one.Refreshes != 0 || one.Deferred != 0 || one.Unrelayed != 0 {
		t.Errorf("one player, scene %s: %d refreshes, %d held, %d without their relay; want the arena and none", one.Scene, one.Refreshes, one.Deferred, one.Unrelayed)
	}
}
