package lab

import (
	"fmt"
	"math"

	"github.com/cubelab/cube/predict"
)

// HUD returns the status lines. Items within a line are separated by two
// spaces; the window wraps lines between items, never inside one.
func (l *Lab) HUD() []string {
	if l.Compact {
		return l.compactHUD()
	}
	c := l.Client()
	newest, have := c.Newest()
	ack := "none"
	if have {
		ack = fmt.Sprint(newest)
	}
	off, _ := c.Smooth.Offset()
	last := c.Last()
	st := c.Stats
	driver := "  keyboard" // what drives the cube, while it is in play
	switch {
	case l.Lost() != nil || !l.InPlay():
		driver = ""
	case l.pilot != nil:
		driver = "  autopilot"
	}
	mis := st.Mispredicted
	rates := l.play.Rates()
	server := "remote"
	if l.local != nil {
		server = onOff(l.Show.Server)
	}
	lines := append(l.play.Status(false),
		fmt.Sprintf("tick %d  acked %s  in flight %d", c.Tick(), ack, c.InFlight()),
		fmt.Sprintf("lead %d  buffer %d (aim %.1f)  late %d", int32(c.Tick()-newest), c.Sync.Last, c.Sync.Target, l.play.Late()),
		fmt.Sprintf("corrections %d (%d/s)  resyncs %d  offset %.2f m", st.Corrections, len(l.corrections), st.Resyncs, off.Len()),
		fmt.Sprintf("last rewind: %d ticks replayed  %d of %d bodies  %.1f ms  error %.3f m  jump %.3f m", last.Replayed, st.LastReplay, c.World().NumBodies(),
			float64(st.LastReplayTime.Microseconds())/1000, math.Sqrt(last.Error.Pos2), last.Jump),
		replayLine(&l.replays),
		fmt.Sprintf("mispredicted: input %d  server %d  remote %d  unverified %d  nondeterminism %d",
			mis[predict.KindInput], mis[predict.KindServer], mis[predict.KindRemote], mis[predict.KindUnverified], mis[predict.KindNondeterminism]+mis[predict.KindRewind]),
		l.play.Rejected(),
		fmt.Sprintf("last second: up %.1f kbit/s %.0f B/pkt  down %.1f kbit/s %.0f B/pkt %.1f bodies",
			rates.UpKbps, rates.UpBytesPerPacket, rates.DownKbps, rates.DownBytesPerPacket, rates.BodiesPerPacket),
		fmt.Sprintf("frame %.1f ms  %.0f fps  %s%s", 1000*l.frameTime, l.fps(), l.runState(), driver),
		fmt.Sprintf("C corrections %s  M smoothing %s  R redundancy %s  T sync test %s", onOff(c.Config.Corrections), onOff(c.Smooth.Enabled), onOff(c.Config.Redundancy), syncTestState(c)),
		fmt.Sprintf("Y server %s  B snapshot %s  V predicted %s", server, onOff(l.Show.Snapshot), onOff(l.Show.Predicted)),
	)
	if l.Debug.Any() {
		line := "debug (F2 to F8): " + l.Debug.hudLine()
		if l.Debug.On[LayerIslands] {
			line += fmt.Sprintf("  %d islands", l.Debug.Islands)
		}
		lines = append(lines, line)
	}
	switch {
	case l.Lost() != nil:
		lines = append(lines, "connection ended (the banner says why)  Esc: quit")
	case l.local == nil:
		lines = append(lines, "F1 or H: help  Tab: hide this")
	default:
		lines = append(lines, "F1 or H: help  Tab: hide this  N: next scene")
	}
	if l.Note != "" {
		lines = append(lines, l.Note)
	}
	return lines
}

// replayLine says how often the shown client replayed over the last
// second, and what its replays re-simulated.
func replayLine(r *replayRate) string {
	n, ticks, bodies := r.perSecond()
	return fmt.Sprintf("replays %.0f/s  re-simulated %.0f ticks/s  %.0f bodies/s", n, ticks, bodies)
}
