package session

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// ClientRun is what a headless run of one client measured besides the
// client's own counters: its link's counters and what the run's loop
// kept. A session fills it for each of its clients; `cube client` for the
// endpoint it drives over a real network.
type ClientRun struct {
	Seconds      float64 // of play
	DrainSeconds float64 // of drain, after the play
	Settled      bool    // the drain ended with a matching state and the cube at rest
	// Played holds the bytes sent and received while playing (the drain
	// left out), for the rates.
	Played [2]uint64
	Link   transport.Counters
	// MaxUp and MaxDown are the largest datagrams sent and received.
	MaxUp, MaxDown int
	// PosErrors holds the player's position error at each state received,
	// m; nil when not kept.
	PosErrors []float64
}

// clientSummary fills what client c and its run know: its counters, its
// link's, its comparisons and the run's measurements. What only a server
// knows is left for the caller.
func clientSummary(c *predict.Client, r *ClientRun) Summary {
	var m Summary
	st := &c.Stats
	m.Seconds, m.Ticks, m.DrainSeconds = r.Seconds, st.Ticks, r.DrainSeconds
	m.Scene, m.Sync, m.Quantize = c.Scene().Name, c.Config.Mode.String(), c.Scene().Options.Quantize
	m.Packets.MaxBytesUp, m.Packets.MaxBytesDown = r.MaxUp, r.MaxDown
	m.Transfers = st.Transfers
	m.Refreshes, m.Deferred, m.Unrelayed = st.Refreshes, st.Deferred, st.Unrelayed
	m.Corrections, m.Resyncs, m.ReplayedTicks, m.MaxReplayTicks = st.Corrections, st.Resyncs, st.ReplayedTicks, st.MaxReplay
	m.StaleIgnored, m.HeldTicks = st.StaleStates, st.HeldTicks
	m.NonFinite = st.NonFinite
	m.Packets.UpSent, m.Packets.UpLost = r.Link.Sent, r.Link.DroppedOut
	m.Packets.DownSent, m.Packets.DownLost = r.Link.Received+r.Link.DroppedIn, r.Link.DroppedIn
	if r.Seconds > 0 {
		m.BytesPerSecond.Up, m.BytesPerSecond.Down = float64(r.Played[0])/r.Seconds, float64(r.Played[1])/r.Seconds
	}
	if n := len(r.PosErrors); n > 0 {
		e := append([]float64(nil), r.PosErrors...)
		sort.Float64s(e)
		sum := 0.0
		for _, x := range e {
			sum += x
		}
		m.PositionError.Mean, m.PositionError.Max = sum/float64(n), e[n-1]
		m.PositionError.P99 = e[min(n-1, (99*n)/100)]
	}
	m.Mispredictions.Input = st.Mispredicted[predict.KindInput]
	m.Mispredictions.Server = st.Mispredicted[predict.KindServer]
	m.Mispredictions.Nondeterminism = st.Mispredicted[predict.KindNondeterminism]
	m.Mispredictions.Unverified = st.Mispredicted[predict.KindUnverified]
	m.Mispredictions.Remote = st.Mispredicted[predict.KindRemote]
	m.Mispredictions.Rewind = st.Mispredicted[predict.KindRewind]
	m.SyncTests = st.SyncTests
	m.Rejected = st.Rejected.Total()
	m.TimeSyncJumps = c.Sync.Jumps
	m.Replay.Partial, m.Replay.FullReplays, m.Replay.Confirmed = st.PartialReplays, st.FullReplays, st.Confirmed
	if st.PartialReplays > 0 {
		m.Replay.PartialBodiesMean = float64(st.PartialBodies) / float64(st.PartialReplays)
	}
	if ran := r.Seconds + r.DrainSeconds; ran > 0 {
		m.Replay.PerSecond = float64(st.PartialReplays+st.FullReplays) / ran
	}
	m.Replay.Ticks, m.Replay.Bodies = st.Resimulated, st.ResimulatedBodies
	m.Replay.RepairTicks, m.Replay.RepairBodies, m.Replay.PartialRepairs = st.RepairTicks, st.RepairBodies, st.PartialRepairs
	cmp := c.Compared()
	m.Final.Tick = cmp.Tick
	m.Final.ClientHash, m.Final.ServerHash = fmt.Sprintf("%016x", cmp.ClientHash), fmt.Sprintf("%016x", cmp.ServerHash)
	m.Final.InSync = st.StatesReceived > 0 && cmp.ClientHash == cmp.ServerHash
	m.Final.Settled = r.Settled
	return m
}

// Summary returns the summary of a run of the endpoint's client against a
// server it knows only through its messages (`cube client`). Besides
// what clientSummary fills, it gives what the client can measure of the
// server: the round trip its Hello measured, the bodies and incomplete
// snapshots it received, its input buffer at the server and the late
// inputs as the server's messages reported them (see BufferStats), and
// its lead over the server's clock estimated as that buffer plus half the
// round trip. Preset and SnapshotHz are the caller's to fill; what only
// the server counts (skipped, repeated and refused ticks, its events and
// rejections) stays zero.
func (e *Endpoint) Summary(r ClientRun) Summary {
	c := e.Client
	m := clientSummary(c, &r)
	m.RTTms = float64(c.Sync.RTT) / float64(time.Millisecond)
	m.Redundancy = c.Config.Redundancy
	if c.Config.Mode == predict.StateSync && c.Stats.StatesReceived > 0 {
		m.BodiesPerPacket = float64(c.Stats.BodiesReceived) / float64(c.Stats.StatesReceived)
	}
	m.Incomplete = c.Stats.Incomplete
	m.InputBufferP95, m.LateInputs = e.Buffer.P95(), e.Buffer.Late
	if e.Buffer.Samples > 0 {
		half := float64(c.Sync.RTT) / 2 / float64(tick.Duration(c.World().Config().Dt))
		m.LeadTicks = int64(math.Round(c.Sync.Buffer + half))
	}
	return m
}

// Overlap is the deepest overlap seen in a world during a run: the most
// physics.MaxOverlap gave (the measure `cube bench` reports), and the tick
// of the state it was first seen in (the state's label); 0 and 0 when no
// two bodies ever overlapped.
type Overlap struct {
	M    float64 `json:"max_overlap_m"`
	Tick uint32  `json:"max_overlap_tick"`
}

// Measure measures w's state now and keeps it if it is the deepest yet.
func (o *Overlap) Measure(w *physics.World) {
	if d := physics.MaxOverlap(w); d > o.M {
		o.M, o.Tick = d, w.Tick()
	}
}

// overlaps are a session run's measures of overlap: the server's world
// after each of its turns, each client's predicted world after each of
// its turns.
type overlaps struct {
	server  Overlap
	clients []Overlap
}

// fill puts the measures in a run's summary: the server's at its top,
// client 0's in Predicted, and each player's in its own summary.
func (o *overlaps) fill(sum *Summary) {
	sum.Overlap = o.server
	client0 := o.clients[0]
	sum.Predicted = &client0
	for i := range sum.Players {
		sum.Players[i].Overlap, sum.Players[i].Predicted = o.clients[i], nil
	}
}
