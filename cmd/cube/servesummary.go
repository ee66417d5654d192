package main

import (
	"encoding/json"
	"fmt"
	"github.com/cubelab/cube/internal/serverlog"
	"github.com/cubelab/cube/internal/summarytext"
	"io"
	"time"
)

// serverSummary is what `cube server` prints when it stops; its JSON form
// with -json.
type serverSummary struct {
	Listen      string  `json:"listen"`
	Scene       string  `json:"scene"`
	Sync        string  `json:"sync"`
	Quantize    bool    `json:"quantize"`
	MaxPlayers  int     `json:"max_players"`
	SnapshotHz  int     `json:"snapshot_hz"`
	BudgetKbps  float64 `json:"budget_kbps"`
	Seconds     float64 `json:"seconds"`      // served, wall clock
	Turns       uint64  `json:"turns"`        // turns of the host, one a tick
	Ticks       uint32  `json:"ticks"`        // ticks simulated (the clock starts with the first client)
	Stalls      int     `json:"stalls"`       // times the loop fell behind by more than a few ticks and dropped the debt
	LostSeconds float64 `json:"lost_seconds"` // the time dropped
	Stopped     string  `json:"stopped"`      // "time" (-seconds) or the signal's name
	Players     struct {
		Joined      int `json:"joined"`
		Left        int `json:"left"`
		TimedOut    int `json:"timed_out"`
		NeverJoined int `json:"never_joined"` // connections that went without a slot: refused (another scene, full) or gone first
		Peak        int `json:"peak"`
	} `json:"players"`
	PerPlayer []serverlog.Player `json:"per_player"`
	Inputs    struct {
		Applied  uint64 `json:"applied"`
		Repeated uint64 `json:"repeated_ticks"`
		Late     uint64 `json:"late"`
		Refused  uint64 `json:"refused"`
		Rejected uint64 `json:"rejected_messages"`
		Why      string `json:"rejected_why"` // by reason: "malformed 3, tick 1", or "none"
		TooFast  uint64 `json:"too_fast"`     // Input messages over a client's rate, refused from their header
	} `json:"inputs"`
	Hellos struct {
		Limited  uint64 `json:"limited"`  // from connections without a slot, beyond their rate: dropped unanswered
		Refusals uint64 `json:"refusals"` // Welcomes that refused a Hello (another scene or mode, full, the address's slots taken)
		Unjoined uint64 `json:"unjoined"` // other datagrams from connections without a slot, dropped unread
	} `json:"hellos"`
	Sent struct {
		Datagrams uint64 `json:"datagrams"`
		Bytes     uint64 `json:"bytes"`
		Dropped   uint64 `json:"dropped"` // by a full send queue or the path's size
	} `json:"sent"`
	Received struct {
		Datagrams    uint64 `json:"datagrams"`
		Bytes        uint64 `json:"bytes"`
		DroppedQueue uint64 `json:"dropped_queue"`       // a connection's share of the receive queue was full
		OverBudget   uint64 `json:"dropped_over_budget"` // a turn's time for what arrived ran out
	} `json:"received"`
	TickMicros struct {
		P50 float64 `json:"p50"`
		P99 float64 `json:"p99"`
		Max float64 `json:"max"`
	} `json:"tick_us"` // the duration of each turn: receive, simulate, send
	Bogus struct {
		NotQUIC         uint64 `json:"not_quic"`
		Malformed       uint64 `json:"malformed"`
		UnknownConn     uint64 `json:"unknown_connection"`
		Throttled       uint64 `json:"throttled"`
		HandshakeFailed uint64 `json:"handshake_failed"`
		Refused         uint64 `json:"refused_connections"`
		RefusedAddr     uint64 `json:"refused_per_address"` // of those, for the -per-address cap
		Total           uint64 `json:"total"`
	} `json:"bogus"`
	Record string `json:"record,omitempty"`
}

// summary collects the run's figures, after shutdown.
func (r *serverRun) summary(ctl *runControl) serverSummary {
	var m serverSummary
	f, sc := r.flags, r.srv.Scene()
	m.Listen, m.Scene, m.Sync, m.Quantize = r.ln.BoundAddr(), sc.Name, r.srv.Mode().String(), sc.Options.Quantize
	m.MaxPlayers, m.SnapshotHz, m.BudgetKbps = len(sc.Players), f.snapshotHz, f.budgetKbps
	m.Seconds = time.Since(r.start).Seconds()
	m.Turns, m.Ticks = r.turns, r.srv.Tick()
	m.Stalls, m.LostSeconds = r.pace.Stalls, r.pace.Lost.Seconds()
	m.Stopped = "time"
	if ctl.stopped != nil {
		m.Stopped = ctl.stopped.String()
	}
	l := r.log
	m.Players.Joined, m.Players.Left, m.Players.TimedOut = len(l.Players), l.Left(), l.TimedOut
	m.Players.NeverJoined, m.Players.Peak = r.watch.NeverJoined, l.Peak
	m.PerPlayer = append([]serverlog.Player{}, l.Players...)
	sv := &r.srv.Stats
	m.Inputs.Applied, m.Inputs.Repeated, m.Inputs.Late = sv.InputsApplied, sv.RepeatedTicks, sv.LateInputs
	m.Inputs.Refused, m.Inputs.Rejected, m.Inputs.Why = sv.RefusedInputs, sv.Rejected.Total(), sv.Rejected.String()
	st := r.ln.Stats()
	m.Sent.Datagrams, m.Sent.Bytes, m.Sent.Dropped = st.Totals.Sent, st.Totals.SentBytes, st.Totals.DroppedSendQueue+st.Totals.DroppedSize
	m.Received.Datagrams, m.Received.Bytes = st.Totals.Received, st.Totals.ReceivedBytes
	m.Received.DroppedQueue, m.Received.OverBudget = st.Totals.DroppedRecvQueue, r.host.OverBudget
	m.Inputs.TooFast = sv.TooFast
	m.Hellos.Limited, m.Hellos.Refusals, m.Hellos.Unjoined = r.host.HellosLimited, sv.Refusals, r.host.Unjoined
	m.TickMicros.P50, m.TickMicros.P99, m.TickMicros.Max = r.times.quantile(0.5), r.times.quantile(0.99), r.times.maxMicros()
	b := st.Bogus
	m.Bogus.NotQUIC, m.Bogus.Malformed, m.Bogus.UnknownConn, m.Bogus.Throttled = b.NotQUIC, b.Malformed, b.UnknownConn, b.Throttled
	m.Bogus.HandshakeFailed, m.Bogus.Refused, m.Bogus.Total = b.HandshakeFailed, b.Refused, b.Total()
	m.Bogus.RefusedAddr = b.RefusedAddr
	m.Record = f.record.path
	return m
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// printServerSummary prints the readable summary.
func printServerSummary(w io.Writer, m *serverSummary) {
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
	fmt.Fprintf(w, "bogus     %d: %d not QUIC, %d malformed, %d for no connection, %d throttled, %d failed handshakes, %d refused connections (%d for -per-address)\n",
		b.Total, b.NotQUIC, b.Malformed, b.UnknownConn, b.Throttled, b.HandshakeFailed, b.Refused, b.RefusedAddr)
	if m.Record != "" {
		fmt.Fprintf(w, "record    %s\n", m.Record)
	}
}
