package server

import (
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/transport"
)

// TestSnapshotRates: every rate of SnapshotRates is valid, and nothing
// else (0, negatives, rates between two valid ones).
func TestSnapshotRates(t *testing.T) {
	for _, hz := range SnapshotRates {
		if !ValidSnapshotRate(hz) {
			t.Errorf("%d Hz refused", hz)
		}
	}
	for _, hz := range []int{0, -1, 3, 5, 63, 65, 128} {
		if ValidSnapshotRate(hz) {
			t.Errorf("%d Hz accepted", hz)
		}
		if err := CheckSnapshotRate(hz); err == nil || !strings.Contains(err.Error(), "want one of [64 32 16 8 4 2 1]") {
			t.Errorf("%d Hz: error %v, want one that names the valid rates", hz, err)
		}
	}
}

// TestDefaultConfigBudget: the default server's snapshot budget is
// DefaultDownBudget, 256 kbit/s.
func TestDefaultConfigBudget(t *testing.T) {
	if got := DefaultConfig().BytesPerSecond; got != 32000 {
		t.Errorf("budget %v bytes/s, want 32000 (256 kbit/s)", got)
	}
}

// TestHostRefusesSnapshotRates: a host with a snapshot rate of zero (or
// any rate not in SnapshotRates) is an error, at NewHost, at
// SetSnapshotRate and at Turn when the field was set by hand: never a
// division by zero in Turn.
func TestHostRefusesSnapshotRates(t *testing.T) {
	s, _ := newServer(t, 1, protocol.ModeState)
	net, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, hz := range []int{0, -64, 3} {
		if h, err := NewHost(s, net, hz); err == nil || h != nil {
			t.Errorf("NewHost at %d Hz: host %v, error %v; want an error", hz, h, err)
		}
	}
	h, err := NewHost(s, net, 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.SetSnapshotRate(0); err == nil {
		t.Error("SetSnapshotRate(0) accepted")
	}
	if h.SnapshotHz != 64 {
		t.Errorf("a refused rate changed the host's to %d Hz", h.SnapshotHz)
	}
	if err := h.SetSnapshotRate(8); err != nil || h.SnapshotHz != 8 {
		t.Errorf("SetSnapshotRate(8): %v, rate %d Hz", err, h.SnapshotHz)
	}
	if err := h.Turn(0); err != nil {
		t.Fatalf("turn at 8 Hz: %v", err)
	}
	h.SnapshotHz = 0
	if err := h.Turn(time.Second / 64); err == nil || !strings.Contains(err.Error(), "snapshot rate 0 Hz") {
		t.Errorf("turn at 0 Hz: error %v, want one naming the rate", err)
	}
}
