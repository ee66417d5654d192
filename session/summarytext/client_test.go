package summarytext

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cubelab/cube/session"
)

// TestPrintFinal: NOT IN SYNC only for differing hashes; agreeing hashes
// that did not settle say why (interrupted, or the drain's limit).
func TestPrintFinal(t *testing.T) {
	for _, c := range []struct {
		inSync, settled, interrupted bool
		want                         string
	}{
		{true, true, false, ": IN SYNC\n"},
		{false, true, false, ": NOT IN SYNC\n"},
		{false, false, true, ": NOT IN SYNC\n"},
		{true, false, true, ": in sync, interrupted before it settled\n"},
		{true, false, false, ": in sync, but did not settle within 60 s\n"},
	} {
		var s session.Summary
		s.Final.InSync, s.Final.Settled, s.Interrupted = c.inSync, c.settled, c.interrupted
		var b bytes.Buffer
		Final(&b, &s)
		if !strings.HasSuffix(b.String(), c.want) {
			t.Errorf("in sync %v, settled %v, interrupted %v: %q, want it to end %q", c.inSync, c.settled, c.interrupted, b.String(), c.want)
		}
	}
}

// TestPrintNonFinite: a client whose steps left a non-finite world says so,
// and one whose did not prints nothing about it.
func TestPrintNonFinite(t *testing.T) {
	var s session.Summary
	var b bytes.Buffer
	ClientLines(&b, &s)
	if strings.Contains(b.String(), "non-finite") {
		t.Errorf("a clean run mentions non-finite steps:\n%s", b.String())
	}
	s.NonFinite = 2
	b.Reset()
	ClientLines(&b, &s)
	if !strings.Contains(b.String(), "2 steps left a non-finite world") {
		t.Errorf("two non-finite steps not reported:\n%s", b.String())
	}
}

// TestPrintRefreshes: a state-sync client with several players prints its
// refreshes and the snapshots it held for their relays; one with neither
// (a single player) prints no such line.
func TestPrintRefreshes(t *testing.T) {
	s := session.Summary{Sync: "state"}
	var b bytes.Buffer
	ClientLines(&b, &s)
	if strings.Contains(b.String(), "refreshes") {
		t.Errorf("a client without relays mentions refreshes:\n%s", b.String())
	}
	s.Refreshes, s.Deferred, s.Unrelayed = 1084, 573, 2
	b.Reset()
	ClientLines(&b, &s)
	want := "relays    1084 refreshes with the other players' inputs, 573 snapshots held for their relays (2 taken without)\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("no line %q in:\n%s", want, b.String())
	}
}

// TestPrintConfirmed: the replays line counts the mispredicted snapshots
// that carried nothing to correct (replay.confirmed).
func TestPrintConfirmed(t *testing.T) {
	var s session.Summary
	s.Replay.Confirmed = 53
	var b bytes.Buffer
	ClientLines(&b, &s)
	if !strings.Contains(b.String(), "; 53 mispredicted snapshots carried nothing to correct\n") {
		t.Errorf("%q", b.String())
	}
}
