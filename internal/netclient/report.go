package netclient

import (
	"fmt"
	"io"
	"time"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/session/summarytext"
)

// Report is what cube client prints: the summary session builds for an
// endpoint, with the server's address.
type Report struct {
	Server string `json:"server"`
	session.Summary
}

// summary builds the report.
func (r *clientRun) summary(preset string, interrupted bool) *Report {
	m := r.ep.Summary(session.ClientRun{
		Seconds: r.played.Seconds(), DrainSeconds: r.drained.Seconds(), Settled: r.settled, Played: r.playBytes,
		Link: r.conn.Stats(), MaxUp: r.ep.MaxUp, MaxDown: r.ep.MaxDown, PosErrors: r.posErrors,
	})
	m.Preset, m.Interrupted, m.Overlap = preset, interrupted, r.overlap
	return &Report{Server: r.addr, Summary: m}
}

// Print writes the readable summary: cube sim's client part, with the
// server and the preset on top of the network.
func (rep *Report) Print(w io.Writer) {
	s := &rep.Summary
	q := ""
	if s.Quantize {
		q = ", quantized"
	}
	fmt.Fprintf(w, "%s, %s%s, server %s, preset %s on top of the network, %.2f s played + %.2f s drained, %d ticks, %s\n",
		s.Scene, summarytext.SyncName(summarytext.ModeName(s.Sync)), q, rep.Server, s.Preset, s.Seconds, s.DrainSeconds, s.Ticks,
		summarytext.JoinRoundTrip(time.Duration(s.RTTms*float64(time.Millisecond)), tick.Duration(physics.DefaultConfig().Dt)))
	fmt.Fprintf(w, "packets   up %d sent, %d dropped by the preset; down %d received, %d dropped by the preset; %.1f kbit/s up, %.1f kbit/s down; largest %d B up, %d B down\n",
		s.Packets.UpSent, s.Packets.UpLost, s.Packets.DownSent-s.Packets.DownLost, s.Packets.DownLost, s.BytesPerSecond.Up*8/1000, s.BytesPerSecond.Down*8/1000,
		s.Packets.MaxBytesUp, s.Packets.MaxBytesDown)
	summarytext.ClientLines(w, s)
	fmt.Fprintf(w, "time sync lead about %d ticks, input buffer p95 %.0f ticks, %d late (as the server's messages said), %s\n",
		s.LeadTicks, s.InputBufferP95, s.LateInputs, summarytext.Plural(int64(s.TimeSyncJumps), "jump"))
	summarytext.Final(w, s)
}
