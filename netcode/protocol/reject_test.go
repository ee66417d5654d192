package protocol

import (
	"errors"
	"strings"
	"testing"
)

// TestRejects: Reject counts under its reason and wraps ErrRejected with
// the reason and the message; String lists what is not zero.
func TestRejects(t *testing.T) {
	var r Rejects
	if r.String() != "none" || r.Total() != 0 {
		t.Fatalf("empty: %q, %d", r.String(), r.Total())
	}
	err := r.Reject(RejectShape, "%d bodies, want %d", 3, 5)
	if !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), "(shape): 3 bodies, want 5") {
		t.Fatalf("error %v", err)
	}
	if err := r.Reject(RejectMalformed, "cut"); !errors.Is(err, ErrRejected) {
		t.Fatalf("error %v", err)
	}
	if err := r.Reject(RejectShape, "again"); err == nil {
		t.Fatal("no error")
	}
	if r.Total() != 3 || r[RejectShape] != 2 || r.String() != "malformed 1, shape 2" {
		t.Fatalf("counts %v: %q, total %d", [numReasons]uint64(r), r.String(), r.Total())
	}
	if got := Reason(numReasons).String(); got != "Reason(5)" {
		t.Errorf("an unknown reason names itself %q", got)
	}
	if got := RejectRate.String(); got != "rate" {
		t.Errorf("a message beyond the rate is called %q, want rate (not tick: an operator would look for wrong ticks)", got)
	}
}
