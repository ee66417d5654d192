package lab

import (
	"fmt"
	"strings"
)

// Compact windows: below compactWidth×compactHeight the HUD keeps the lines
// a user reads first, so that the status panel, the graph and a banner
// leave most of a small window to the scene.
const (
	compactWidth  = 960
	compactHeight = 540
)

// setWindowSize tells the lab the window's framebuffer size.
func (l *Lab) SetWindowSize(width, height int) {
	l.Compact = width < compactWidth || height < compactHeight
}

// compactHUD returns the status lines of a small window: the link, the
// scene, the ticks, the corrections and the pace; the full lines are a
// bigger window away.
func (l *Lab) compactHUD() []string {
	c := l.Client()
	newest, have := c.Newest()
	ack, lead := "none", 0
	if have {
		ack, lead = fmt.Sprint(newest), int(int32(c.Tick()-newest))
	}
	st := c.Stats
	lines := append(l.play.Status(true),
		fmt.Sprintf("tick %d  acked %s  lead %d", c.Tick(), ack, lead),
		fmt.Sprintf("corrections %d (%d/s)  resyncs %d", st.Corrections, len(l.corrections), st.Resyncs),
		fmt.Sprintf("%.0f fps  %s", l.fps(), l.runState()))
	if l.Debug.Any() {
		lines = append(lines, "debug: "+l.Debug.hudLine())
	}
	if l.Lost() != nil {
		lines = append(lines, "connection ended  Esc: quit")
	} else {
		lines = append(lines, "F1: help  Tab: hide")
	}
	if l.Note != "" {
		lines = append(lines, l.Note)
	}
	return lines
}

// fps returns the smoothed frame rate.
func (l *Lab) fps() float64 {
	if l.frameTime > 0 {
		return 1 / l.frameTime
	}
	return 0
}

// runState says whether the session runs, and at what speed when slower
// than real time; against a remote server, that it waits to join, or that
// the connection ended and nothing runs.
func (l *Lab) runState() string {
	switch {
	case l.Lost() != nil:
		return "stopped"
	case !l.InPlay():
		return "joining"
	case l.Paused:
		return "PAUSED"
	}
	if recent, _, ok := l.play.Speed(); ok && recent < 0.95 {
		return fmt.Sprintf("running at %.0f%% speed", 100*recent)
	}
	return "running"
}

// CompactBanner shortens a desync banner for a small window: its title
// and where the report is (the reason is in the report and on stdout).
func CompactBanner(s string) string {
	title, detail, _ := strings.Cut(s, "\n")
	if _, report, ok := strings.Cut(detail, "; report in "); ok {
		return title + "\nreport in " + report
	}
	if kind, _, ok := strings.Cut(detail, ":"); ok {
		return title + "\n" + kind
	}
	return title
}
