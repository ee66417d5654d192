package summarytext

import (
	"bytes"
	"testing"

	"github.com/cubelab/cube/session"
)

// TestPrintOverlap: cube sim's line gives the server's figure and client
// 0's, cube client's its own prediction's.
func TestPrintOverlap(t *testing.T) {
	var s session.Summary
	s.Overlap = session.Overlap{M: 0.03, Tick: 1000}
	var b bytes.Buffer
	Overlap(&b, &s)
	if want := "overlap   max 0.0300 m predicted (tick 1000)\n"; b.String() != want {
		t.Errorf("a client's line %q, want %q", b.String(), want)
	}
	s.Predicted = &session.Overlap{M: 0.0125, Tick: 1003}
	b.Reset()
	Overlap(&b, &s)
	if want := "overlap   max 0.0300 m on the server (tick 1000), 0.0125 m predicted (tick 1003)\n"; b.String() != want {
		t.Errorf("cube sim's line %q, want %q", b.String(), want)
	}
}
