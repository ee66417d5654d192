package main

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/session"
)

// printClientLines prints the lines of a client's summary that cube sim and
// cube client share: what the server sent, the client's counters, the
// mispredictions by kind, the position error and the deepest overlap.
func printClientLines(w io.Writer, s *session.Summary) {
	if s.Sync == "state" {
		fmt.Fprintf(w, "snapshots %.1f bodies each, %d left bodies out; %d transfers\n", s.BodiesPerPacket, s.Incomplete, s.Transfers)
	} else {
		fmt.Fprintf(w, "relays    %d transfers\n", s.Transfers)
	}
	fmt.Fprintf(w, "client    %d corrections, %d quiet resyncs, %d ticks replayed (at most %d at once), %d stale states ignored, %d ticks held\n",
		s.Corrections, s.Resyncs, s.ReplayedTicks, s.MaxReplayTicks, s.StaleIgnored, s.HeldTicks)
	fmt.Fprintf(w, "replays   %d partial (%.1f bodies re-simulated on average), %d of the whole world\n",
		s.Replay.Partial, s.Replay.PartialBodiesMean, s.Replay.FullReplays)
	if s.NonFinite > 0 {
		fmt.Fprintf(w, "client    %d steps left a non-finite world: each was given up for a transfer of the server's state\n", s.NonFinite)
	}
	m := &s.Mispredictions
	fmt.Fprintf(w, "mispredictions  input %d, server %d, remote %d, nondeterminism %d, unverified %d; %d messages rejected\n",
		m.Input, m.Server, m.Remote, m.Nondeterminism, m.Unverified, s.Rejected)
	fmt.Fprintf(w, "position error  mean %s, p99 %s, max %s\n", metres(s.PositionError.Mean), metres(s.PositionError.P99), metres(s.PositionError.Max))
	printOverlap(w, s)
}

// printOverlap prints the deepest overlap between two bodies or a body and
// the ground: on the server and in client 0's prediction (cube sim), or in
// the client's prediction (cube client, which sees no server's world).
func printOverlap(w io.Writer, s *session.Summary) {
	if p := s.Predicted; p != nil {
		fmt.Fprintf(w, "overlap   max %.4f m on the server (tick %d), %.4f m predicted (tick %d)\n", s.Overlap.M, s.Overlap.Tick, p.M, p.Tick)
		return
	}
	fmt.Fprintf(w, "overlap   max %.4f m predicted (tick %d)\n", s.Overlap.M, s.Overlap.Tick)
}

// printFinal prints how the final states compare: IN SYNC only when the
// hashes agree, NOT IN SYNC only when they differ, and whether the run
// settled.
func printFinal(w io.Writer, s *session.Summary) {
	verdict := "IN SYNC"
	switch {
	case !s.Final.InSync:
		verdict = "NOT IN SYNC"
	case !s.Final.Settled && s.Interrupted:
		verdict = "in sync, interrupted before it settled"
	case !s.Final.Settled:
		verdict = fmt.Sprintf("in sync, but did not settle within %.0f s", session.MaxDrain.Seconds())
	}
	fmt.Fprintf(w, "final     tick %d: client %s, server %s: %s\n", s.Final.Tick, s.Final.ClientHash, s.Final.ServerHash, verdict)
}
