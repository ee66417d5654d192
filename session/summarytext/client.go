// Package summarytext words the summaries the headless subcommands print
// (cube sim, cube client, cube serve): the lines, their units and the
// names of the sync modes.
package summarytext

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/session"
)

// ClientLines prints the lines of a client's summary that cube sim and
// cube client share: what the server sent, the client's counters, the
// mispredictions by kind, the position error and the deepest overlap.
func ClientLines(w io.Writer, s *session.Summary) {
	if s.Sync == "state" {
		fmt.Fprintf(w, "snapshots %.1f bodies each, %d left bodies out; %d transfers\n", s.BodiesPerPacket, s.Incomplete, s.Transfers)
		if s.Refreshes > 0 || s.Deferred > 0 {
			fmt.Fprintf(w, "relays    %d refreshes with the other players' inputs, %d snapshots held for their relays (%d taken without)\n",
				s.Refreshes, s.Deferred, s.Unrelayed)
		}
	} else {
		fmt.Fprintf(w, "relays    %d transfers\n", s.Transfers)
	}
	if s.DownMax1s > 0 || s.TransferCost.Started > 0 {
		t := &s.TransferCost
		fmt.Fprintf(w, "down      at most %.1f kbit in any second; transfers sent %d, taken %d, %d bytes, %.0f ticks on average, at most %d\n",
			float64(s.DownMax1s)*8/1000, t.Started, t.Taken, t.Bytes, t.MeanTicks, t.MaxTicks)
	}
	fmt.Fprintf(w, "client    %d corrections, %d quiet resyncs, %d ticks replayed (at most %d at once), %d stale states ignored, %d ticks held\n",
		s.Corrections, s.Resyncs, s.ReplayedTicks, s.MaxReplayTicks, s.StaleIgnored, s.HeldTicks)
	fmt.Fprintf(w, "replays   %d partial (%.1f bodies re-simulated on average), %d of the whole world; %.1f a second, %d ticks and %d body-ticks re-simulated; %d mispredicted snapshots carried nothing to correct\n",
		s.Replay.Partial, s.Replay.PartialBodiesMean, s.Replay.FullReplays, s.Replay.PerSecond, s.Replay.Ticks, s.Replay.Bodies, s.Replay.Confirmed)
	if s.NonFinite > 0 {
		fmt.Fprintf(w, "client    %d steps left a non-finite world: each was given up for a transfer of the server's state\n", s.NonFinite)
	}
	m := &s.Mispredictions
	fmt.Fprintf(w, "mispredictions  input %d, server %d, remote %d, nondeterminism %d, unverified %d; %d messages rejected\n",
		m.Input, m.Server, m.Remote, m.Nondeterminism, m.Unverified, s.Rejected)
	fmt.Fprintf(w, "position error  mean %s, p99 %s, max %s\n", Metres(s.PositionError.Mean), Metres(s.PositionError.P99), Metres(s.PositionError.Max))
	Overlap(w, s)
}

// Overlap prints the deepest overlap between two bodies or a body and
// the ground: on the server and in client 0's prediction (cube sim), or in
// the client's prediction (cube client, which sees no server's world).
func Overlap(w io.Writer, s *session.Summary) {
	if p := s.Predicted; p != nil {
		fmt.Fprintf(w, "overlap   max %.4f m on the server (tick %d), %.4f m predicted (tick %d)\n", s.Overlap.M, s.Overlap.Tick, p.M, p.Tick)
		return
	}
	fmt.Fprintf(w, "overlap   max %.4f m predicted (tick %d)\n", s.Overlap.M, s.Overlap.Tick)
}

// Final prints how the final states compare: IN SYNC only when the
// hashes agree, NOT IN SYNC only when they differ, and whether the run
// settled.
func Final(w io.Writer, s *session.Summary) {
	verdict := "IN SYNC"
	switch {
	case !s.Final.InSync:
		verdict = "NOT IN SYNC"
	case !s.Final.Settled && s.Interrupted:
		verdict = "in sync, interrupted before it settled"
	case !s.Final.Settled:
		verdict = fmt.Sprintf("in sync, but did not settle within %.0f s", session.MaxDrain.Seconds())
	}
	fmt.Fprintf(w, "final     state at server tick %d: client %s, server %s: %s\n", s.Final.Tick, s.Final.ClientHash, s.Final.ServerHash, verdict)
}

// Sim prints the summary of a headless session (cube sim).
func Sim(w io.Writer, s *session.Summary) {
	q := ""
	if s.Quantize {
		q = ", quantized"
	}
	fmt.Fprintf(w, "%s, %s%s, preset %s, %g s played + %.2f s drained, %d client ticks, snapshots at %d Hz, round trip %.0f ms, redundancy %v\n",
		s.Scene, SyncName(ModeName(s.Sync)), q, s.Preset, s.Seconds, s.DrainSeconds, s.Ticks, s.SnapshotHz, s.RTTms, s.Redundancy)
	fmt.Fprintf(w, "packets   up %d sent, %d lost; down %d sent, %d lost; %.1f kbit/s up, %.1f kbit/s down; largest %d B up, %d B down\n",
		s.Packets.UpSent, s.Packets.UpLost, s.Packets.DownSent, s.Packets.DownLost, s.BytesPerSecond.Up*8/1000, s.BytesPerSecond.Down*8/1000,
		s.Packets.MaxBytesUp, s.Packets.MaxBytesDown)
	ClientLines(w, s)
	fmt.Fprintf(w, "server    %d ticks skipped, %d repeated, %d inputs refused, %d nudges\n",
		s.SkippedTicks, s.RepeatedTicks, s.RefusedInputs, s.Nudges)
	fmt.Fprintf(w, "display jump    max %.4f m per frame (largest raw correction %.4f m)\n", s.DisplayJump.Max, s.DisplayJump.MaxCorrection)
	Final(w, s)
	if s.InputBufferP95 > 0 || s.LeadTicks != 0 {
		fmt.Fprintf(w, "time sync lead %d ticks, input buffer p95 %.0f ticks, %s, %s\n",
			s.LeadTicks, s.InputBufferP95, Plural(int64(s.LateInputs), "late input"), Plural(int64(s.TimeSyncJumps), "jump"))
	}
	for i, p := range s.Players {
		state := "in sync"
		if !p.Final.InSync {
			state = "NOT IN SYNC"
		}
		fmt.Fprintf(w, "player %d  %s; mispredictions input %d, server %d, remote %d, nondeterminism %d; buffer p95 %.0f, %d late, lead %d; overlap %.4f m\n",
			i, state, p.Mispredictions.Input, p.Mispredictions.Server, p.Mispredictions.Remote, p.Mispredictions.Nondeterminism,
			p.InputBufferP95, p.LateInputs, p.LeadTicks, p.Overlap.M)
	}
	if sv := s.Server; sv != nil {
		fmt.Fprintf(w, "server    %d ticks, %d inputs applied, %d repeated, %d late, %d refused, %d rejected, %d joins, %d leaves\n",
			sv.Ticks, sv.InputsApplied, sv.RepeatedTicks, sv.LateInputs, sv.RefusedInputs, sv.Rejected, sv.Joins, sv.Leaves)
	}
}
