package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSimJSONReportsOverlap: with a perfect link the client predicts the
// server's states exactly, so its deepest overlap is the server's, at the
// same tick.
func TestSimJSONReportsOverlap(t *testing.T) {
	code, out, errs := runCube("sim", "-preset", "perfect", "-seconds", "10", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		overlapFields
		Predicted overlapFields `json:"predicted"`
		Final     struct {
			Tick uint32 `json:"tick"`
		} `json:"final"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	end := r.Final.Tick + 64 // the drain's last ticks come after the last compared state
	r.overlapFields.check(t, "server", end)
	r.Predicted.check(t, "predicted", end)
	if r.M != nil && r.Predicted.M != nil && (*r.M != *r.Predicted.M || *r.Tick != *r.Predicted.Tick) {
		t.Errorf("server %v m at tick %d, predicted %v m at tick %d: a perfect link predicts the same states",
			*r.M, *r.Tick, *r.Predicted.M, *r.Predicted.Tick)
	}
	_, text, _ := runCube("sim", "-preset", "perfect", "-seconds", "10")
	if !strings.Contains(text, "\noverlap   max ") {
		t.Errorf("no overlap line in the readable summary:\n%s", text)
	}
}

// TestClientJSONReportsOverlap runs `cube client` against a server on
// loopback: its JSON has the deepest overlap of its prediction.
func TestClientJSONReportsOverlap(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	srv := startServer(t, "-max-players", "1")
	r := runTestClient(srv, "-max-players", "1", "-seconds", "3", "-seed", "2")
	r.check(t, "client")
	var f overlapFields
	if err := json.Unmarshal([]byte(r.out), &f); err != nil {
		t.Fatal(err)
	}
	f.check(t, "client", r.report.Final.Tick+64)
	t.Logf("client: max overlap %v m at tick %d", r.report.Overlap.M, r.report.Overlap.Tick)
	if f.M != nil && (*f.M != r.report.Overlap.M || r.report.Predicted != nil) {
		t.Errorf("the report has %+v and predicted %v", r.report.Overlap, r.report.Predicted)
	}
}

// overlapFields are the JSON fields of a deepest overlap.
type overlapFields struct {
	M    *float64 `json:"max_overlap_m"`
	Tick *uint32  `json:"max_overlap_tick"`
}

// check says whether the fields are there and plausible for the arena's
// autopilot: the cube on the ground and against the walls sinks in by a
// little (> 0), never 2 cm, at a tick the run reached.
func (o *overlapFields) check(t *testing.T, what string, lastTick uint32) {
	t.Helper()
	if o.M == nil || o.Tick == nil {
		t.Errorf("%s: max_overlap_m or max_overlap_tick missing", what)
		return
	}
	if *o.M <= 0 || *o.M >= 0.02 || *o.Tick == 0 || *o.Tick > lastTick {
		t.Errorf("%s: max overlap %v m at tick %d (the run ended at tick %d)", what, *o.M, *o.Tick, lastTick)
	}
}
