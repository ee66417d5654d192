package summarytext

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/session"
)

// Verdict prints the summary's last line: what the run ended with
// (s.Verdict, set by Judge) and the exit code the command gives for it.
func Verdict(w io.Writer, s *session.Summary, code int) {
	var what string
	switch s.Verdict {
	case session.VerdictInSync:
		what = fmt.Sprintf("IN SYNC: the final state is the server's, %.2f s into the drain", s.DrainSeconds)
	case session.VerdictNotInSync:
		what = fmt.Sprintf("NOT IN SYNC: the final state is not the server's after %.2f s of drain", s.DrainSeconds)
	case session.VerdictNondeterminism:
		what = "NONDETERMINISM: the same inputs and events gave other bits than the server's"
	default:
		what = "not judged"
	}
	fmt.Fprintf(w, "verdict   %s (exit %d)\n", what, code)
}
