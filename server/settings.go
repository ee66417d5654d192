package server

import "fmt"

// SnapshotRates are the snapshot (and relay) rates a server accepts, in
// Hz: the tick rate halved down to 1 Hz, so that every snapshot falls on
// a tick and the rate keys step by a factor of two.
var SnapshotRates = []int{64, 32, 16, 8, 4, 2, 1}

// ValidSnapshotRate reports whether hz is one of SnapshotRates.
func ValidSnapshotRate(hz int) bool {
	for _, r := range SnapshotRates {
		if r == hz {
			return true
		}
	}
	return false
}

// CheckSnapshotRate refuses a rate that is not one of SnapshotRates.
func CheckSnapshotRate(hz int) error {
	if !ValidSnapshotRate(hz) {
		return fmt.Errorf("snapshot rate %d Hz, want one of %v", hz, SnapshotRates)
	}
	return nil
}

// DefaultDownBudget is the state-sync snapshots' budget of the original
// GDC demo, in bytes per second: 256 kbit/s.
const DefaultDownBudget = 256000 / 8
