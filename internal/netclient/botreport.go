package netclient

import (
	"fmt"
	"io"
	"time"

	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/session/summarytext"
)

// BotReport is what cube client -bot prints: what a player that keeps no
// world can know of its run. It has no verdict: a bot compares no state,
// so it never says whether it was in sync.
type BotReport struct {
	Bot      bool    `json:"bot"` // always true: tells this report from a client's
	Server   string  `json:"server"`
	Scene    string  `json:"scene"`
	Sync     string  `json:"sync"`
	Quantize bool    `json:"quantize"`
	Preset   string  `json:"preset"`
	Seconds  float64 `json:"seconds"`
	// Interrupted: a signal ended the run before its seconds.
	Interrupted bool `json:"interrupted"`
	Joined      bool `json:"joined"`
	Slot        int  `json:"slot"` // the bot's player slot, -1 when it never joined
	// Ticks it sent an input for, and ticks it held (joining, a jump back
	// of time sync, or a ring of unconfirmed inputs).
	Ticks     uint64 `json:"ticks"`
	HeldTicks uint64 `json:"held_ticks"`
	// InputsSent counts inputs in its messages, resends included.
	InputsSent uint64 `json:"inputs_sent"`
	// StatesReceived counts the snapshots and relays it took the heads of;
	// Early those about ticks it had not reached; Ignored what a bot has
	// no use for (fragments, repairs, duplicates); Rejected what did not
	// decode.
	StatesReceived uint64 `json:"states_received"`
	Early          uint64 `json:"early"`
	Ignored        uint64 `json:"ignored"`
	Rejected       uint64 `json:"rejected"`
	// Late counts the server's messages that said the bot's newest input
	// had come too late for its tick.
	Late uint64 `json:"late_inputs"`
	// TimeSyncJumps counts time sync's jumps, the start included; RTTms is
	// the round trip measured at join.
	TimeSyncJumps int     `json:"time_sync_jumps"`
	RTTms         float64 `json:"rtt_ms"`
	Packets       struct {
		UpSent       uint64 `json:"up_sent"`
		UpDropped    uint64 `json:"up_dropped"` // by the preset
		DownReceived uint64 `json:"down_received"`
		DownDropped  uint64 `json:"down_dropped"` // by the preset
	} `json:"packets"`
	Bytes struct {
		Up   uint64 `json:"up"`
		Down uint64 `json:"down"`
	} `json:"bytes"`
}

// newBotReport builds the report of cfg's run, which ended at at.
func newBotReport(cfg BotConfig, at time.Duration, late uint64, interrupted bool) *BotReport {
	b, sc := cfg.Bot, cfg.Scene
	st := cfg.Conn.Stats()
	r := &BotReport{Bot: true, Server: cfg.Addr, Scene: sc.Name, Sync: b.Mode().String(), Quantize: sc.Options.Quantize,
		Preset: cfg.Preset.Name, Seconds: at.Seconds(), Interrupted: interrupted, Joined: b.Joined(), Slot: -1,
		Ticks: b.Stats.Ticks, HeldTicks: b.Stats.HeldTicks, InputsSent: b.Stats.InputsSent,
		StatesReceived: b.Stats.StatesReceived, Early: b.Stats.Early, Ignored: b.Stats.Ignored, Rejected: b.Stats.Rejected,
		Late: late, TimeSyncJumps: b.Sync.Jumps, RTTms: float64(b.Sync.RTT) / float64(time.Millisecond)}
	if b.Joined() {
		r.Slot = b.Slot()
	}
	r.Packets.UpSent, r.Packets.UpDropped = st.Sent, st.DroppedOut
	r.Packets.DownReceived, r.Packets.DownDropped = st.Received, st.DroppedIn
	r.Bytes.Up, r.Bytes.Down = st.SentBytes, st.ReceivedBytes
	return r
}

// Print writes the readable report.
func (r *BotReport) Print(w io.Writer) {
	q := ""
	if r.Quantize {
		q = ", quantized"
	}
	slot := "never joined"
	if r.Joined {
		slot = fmt.Sprintf("slot %d", r.Slot)
	}
	fmt.Fprintf(w, "bot (no world), %s, %s%s, server %s, %s, preset %s on top of the network, %.2f s played, %s\n",
		r.Scene, summarytext.SyncName(summarytext.ModeName(r.Sync)), q, r.Server, slot, r.Preset, r.Seconds,
		summarytext.JoinRoundTrip(time.Duration(r.RTTms*float64(time.Millisecond)), tick.Duration(physics.DefaultConfig().Dt)))
	fmt.Fprintf(w, "ticks     %d with an input, %d held; %d inputs sent (resends included)\n", r.Ticks, r.HeldTicks, r.InputsSent)
	fmt.Fprintf(w, "server    %d states taken (their heads), %d early, %d ignored, %d rejected; %d late inputs (as its messages said); %s\n",
		r.StatesReceived, r.Early, r.Ignored, r.Rejected, r.Late, summarytext.Plural(int64(r.TimeSyncJumps), "time sync jump"))
	fmt.Fprintf(w, "packets   up %d sent, %d dropped by the preset, %d B; down %d received, %d dropped by the preset, %d B\n",
		r.Packets.UpSent, r.Packets.UpDropped, r.Bytes.Up, r.Packets.DownReceived, r.Packets.DownDropped, r.Bytes.Down)
	fmt.Fprintln(w, "sync      not checked: a bot keeps no world to compare")
}
