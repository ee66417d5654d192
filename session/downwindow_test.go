package session

import "testing"

// TestDownWindowMax checks that the window keeps the most bytes of any run
// of turns of its length, not the total nor the last second's.
func TestDownWindowMax(t *testing.T) {
	w := newDownWindow(4)
	total := uint64(1000) // what was sent before the window knew the client
	w.note(total)
	for _, d := range []uint64{10, 10, 500, 10, 10, 10, 10, 300, 300, 10} {
		total += d
		w.note(total)
	}
	// The heaviest 4 turns in a row: 10+300+300+10 (the 500 turn's
	// windows hold 530 at most).
	if w.max != 620 {
		t.Errorf("max of any 4 turns = %d, want 620", w.max)
	}
	if w.sum != 620 {
		t.Errorf("last 4 turns = %d, want 620", w.sum)
	}
	w.note(5) // the slot's new client: its count starts again
	w.note(25)
	if w.max != 630 || w.sum != 630 { // 300+300+10+20
		t.Errorf("after a restart: max %d sum %d, want 630 and 630", w.max, w.sum)
	}
}
