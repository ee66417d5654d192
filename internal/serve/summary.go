// Package serve is cube server's loop: a server over QUIC, a turn of its
// host every tick in real time, until a signal or the time given; then
// the shutdown that lets it count every client's stay, and the summary of
// what it served.
package serve

import (
	"time"

	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/internal/serverlog"
)

// Summary is what cube server prints when it stops; its JSON form with
// -json.
type Summary struct {
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
	Stopped     string  `json:"stopped"`      // "time" (-seconds), "empty" (-exit-when-empty) or the signal's name
	Players     struct {
		Joined      int `json:"joined"`
		Left        int `json:"left"`
		TimedOut    int `json:"timed_out"`
		NeverJoined int `json:"never_joined"` // connections that went without a slot: refused (another scene, full) or gone first
		Peak        int `json:"peak"`
	} `json:"players"`
	// PerPlayer holds the open stays and the last serverlog.KeptStays
	// closed ones; Earlier sums the older ones, so that the summary stays
	// bounded however many clients come and go.
	PerPlayer []serverlog.Player `json:"per_player"`
	Earlier   serverlog.Earlier  `json:"per_player_earlier"`
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
		RefusedBusy     uint64 `json:"refused_busy"`        // attempts refused before their handshake: 128 handshakes in flight
		Retried         uint64 `json:"retried"`             // attempts asked for a Retry (8 handshakes or more in flight); not in total
		Evicted         uint64 `json:"evicted"`             // connections without a slot closed to make room for a new one (not in total)
		Total           uint64 `json:"total"`
	} `json:"bogus"`
	Record    string `json:"record,omitempty"`
	RecordCut string `json:"record_truncated,omitempty"` // why the record ends early (a failed write), "" when whole
}

// summary collects the run's figures, after shutdown.
func (r *serverRun) summary(ctl *runctl.Control) *Summary {
	m := &Summary{}
	f, sc := r.cfg, r.srv.Scene()
	m.Listen, m.Scene, m.Sync, m.Quantize = r.ln.BoundAddr(), sc.Name, r.srv.Mode().String(), sc.Options.Quantize
	m.MaxPlayers, m.SnapshotHz, m.BudgetKbps = len(sc.Players), f.SnapshotHz, f.BudgetKbps
	m.Seconds = time.Since(r.start).Seconds()
	m.Turns, m.Ticks = r.turns, r.srv.Tick()
	m.Stalls, m.LostSeconds = r.pace.Stalls, r.pace.Lost.Seconds()
	m.Stopped = r.stopReason(ctl.Stopped())
	l := r.log
	m.Players.Joined, m.Players.Left, m.Players.TimedOut = l.Joined, l.Left(), l.TimedOut
	m.Players.NeverJoined, m.Players.Peak = r.watch.NeverJoined, l.Peak
	m.PerPlayer, m.Earlier = append([]serverlog.Player{}, l.Players...), l.Earlier
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
	m.Bogus.RefusedAddr, m.Bogus.Evicted, m.Bogus.RefusedBusy, m.Bogus.Retried = b.RefusedAddr, b.Evicted, b.RefusedBusy, b.Retried
	m.Record = f.Record
	return m
}
