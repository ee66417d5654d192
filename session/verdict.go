package session

// What a headless run ends with (cube sim, cube client): its verdict, in
// the summary's JSON as "verdict", and the exit code that says it.
const (
	VerdictInSync         = "in_sync"        // every client's final state is the server's: exit 0
	VerdictNotInSync      = "not_in_sync"    // a client's final state is not the server's after the drain: exit 1
	VerdictNondeterminism = "nondeterminism" // a client found bits its inputs cannot explain: exit 3
)

// Exit codes of cube sim and cube client for each verdict; 2 stays the
// code of a usage error, 128 plus a signal's number that of a run a
// signal stopped.
const (
	ExitInSync         = 0
	ExitNotInSync      = 1
	ExitNondeterminism = 3
)

// Judge sets s.Verdict from the final states and the mispredictions of
// every client the summary holds (Players, or s alone), and returns the
// exit code that says it. Nondeterminism comes first: a client that
// found it may well end out of step too, and the divergence is the news.
func (s *Summary) Judge() int {
	all := s.Players
	if len(all) == 0 {
		all = []Summary{*s}
	}
	nondet, inSync := false, true
	for i := range all {
		m := &all[i].Mispredictions
		nondet = nondet || m.Nondeterminism > 0 || m.Rewind > 0
		inSync = inSync && all[i].Final.InSync
	}
	switch {
	case nondet:
		s.Verdict = VerdictNondeterminism
		return ExitNondeterminism
	case !inSync:
		s.Verdict = VerdictNotInSync
		return ExitNotInSync
	}
	s.Verdict = VerdictInSync
	return ExitInSync
}
