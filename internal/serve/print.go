package serve

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/session/summarytext"
)

// Print writes the readable summary: cube server's output without -json.
func (m *Summary) Print(w io.Writer) {
	q := ""
	if m.Quantize {
		q = ", quantized"
	}
	sent := fmt.Sprintf("snapshots at %d Hz, %g kbit/s a client", m.SnapshotHz, m.BudgetKbps)
	if m.Sync == "inputs" {
		sent = fmt.Sprintf("relays at %d Hz", m.SnapshotHz) // input sync has no snapshot budget
	}
	fmt.Fprintf(w, "served %s (%d player slots, %s%s, %s) on %s for %.1f s, stopped by %s\n",
		m.Scene, m.MaxPlayers, summarytext.SyncName(summarytext.ModeName(m.Sync)), q, sent, m.Listen, m.Seconds, m.Stopped)
	fmt.Fprintf(w, "ticks     %d simulated in %d turns; %d stalls dropped %.3f s\n", m.Ticks, m.Turns, m.Stalls, m.LostSeconds)
	fmt.Fprintf(w, "tick time p50 %.0f µs, p99 %.0f µs, max %.0f µs\n", m.TickMicros.P50, m.TickMicros.P99, m.TickMicros.Max)
	p := &m.Players
	fmt.Fprintf(w, "players   %d joined, %d left, %d timed out, at most %d at once; %d connections never joined (refused or gone first)\n",
		p.Joined, p.Left, p.TimedOut, p.Peak, p.NeverJoined)
	if e := &m.Earlier; e.Stays > 0 {
		fmt.Fprintf(w, "  %d earlier stays (%d timed out), summed: %d inputs applied, %d ticks repeated, %d late, %d too far ahead, %d too fast, %d for another cube, %d rejected, %d dropped by their receive queues\n",
			e.Stays, e.TimedOut, e.Applied, e.Repeated, e.Late, e.TooFar, e.TooFast, e.OtherPlayer, e.Rejected, e.RecvDropped)
	}
	for _, r := range m.PerPlayer {
		left := "still there"
		if r.Left >= 0 {
			left = fmt.Sprintf("to %.1f s, %s", r.Left, r.How)
		}
		fmt.Fprintf(w, "  slot %d  peer %d %s, from %.1f s %s: %d inputs applied, %d ticks repeated, %d late, %d too far ahead, %d too fast, %d for another cube, %d rejected, %d dropped by its receive queue; buffer p95 %.0f ticks\n",
			r.Slot, r.Peer, r.Addr, r.Joined, left, r.Applied, r.Repeated, r.Late, r.TooFar, r.TooFast, r.OtherPlayer, r.Rejected, r.RecvDropped, r.BufferP95)
	}
	in := &m.Inputs
	fmt.Fprintf(w, "inputs    %d applied, %d ticks repeated, %d late, %d refused; %d messages rejected (%s), %d of them too fast\n", in.Applied, in.Repeated, in.Late, in.Refused, in.Rejected, in.Why, in.TooFast)
	fmt.Fprintf(w, "hellos    %d refused, %d limited (over a connection's rate); %d other datagrams without a slot dropped\n", m.Hellos.Refusals, m.Hellos.Limited, m.Hellos.Unjoined)
	fmt.Fprintf(w, "traffic   sent %d datagrams, %d bytes (%d dropped by the send queue or size); received %d datagrams, %d bytes (%d dropped by the receive queue, %d over a turn's budget)\n",
		m.Sent.Datagrams, m.Sent.Bytes, m.Sent.Dropped, m.Received.Datagrams, m.Received.Bytes, m.Received.DroppedQueue, m.Received.OverBudget)
	b := &m.Bogus
	fmt.Fprintf(w, "bogus     %d: %d not QUIC, %d malformed, %d for no connection, %d throttled, %d failed handshakes, %d refused connections (%d for -per-address), %d attempts refused for the handshakes in flight; %d connections without a slot closed to make room; %d attempts asked for a Retry\n",
		b.Total, b.NotQUIC, b.Malformed, b.UnknownConn, b.Throttled, b.HandshakeFailed, b.Refused, b.RefusedAddr, b.RefusedBusy, b.Evicted, b.Retried)
	if m.Record != "" {
		fmt.Fprintf(w, "record    %s\n", m.Record)
	}
}
