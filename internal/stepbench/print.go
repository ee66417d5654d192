package stepbench

import (
	"fmt"
	"io"
	"strings"
)

// NameWidth is the width of the figures' names in Print's lines: the
// longest, max_speed_after_10s_mps.
const NameWidth = len("max_speed_after_10s_mps")

// Print writes the readable form of r, cube bench's output without -json.
func (r *Result) Print(w io.Writer) {
	// One figure a line, its name in a column as wide as the longest.
	for _, l := range [][2]string{
		{"scene", fmt.Sprintf("%s, %d bodies, %d steps, %d iterations, sleep %v, %d workers", r.Scene, r.Bodies, r.Steps, r.Iterations, r.Sleep, r.Workers)},
		{"ms_per_step", fmt.Sprintf("%.4f", r.MsPerStep)},
		{"p99_step_ms", fmt.Sprintf("%.4f", r.P99StepMs)},
		{"allocs_per_step", fmt.Sprintf("%.3f", r.AllocsPerStep)},
		{"awake_at_end", fmt.Sprint(r.AwakeAtEnd)},
		{"contacts_at_end", fmt.Sprint(r.ContactsAtEnd)},
		{"max_overlap_m", fmt.Sprintf("%.5f", r.MaxOverlapM)},
		{"max_drift_m", fmt.Sprintf("%.5f", r.MaxDriftM)},
		{"max_speed_after_10s_mps", fmt.Sprintf("%.5f", r.MaxSpeedLate)},
		{"replay32_ms", fmt.Sprintf("%.3f", r.Replay32Ms)},
		{"replay32_partial_ms", fmt.Sprintf("%.3f (%d bodies)", r.Partial32Ms, r.PartialBodies)},
		{"save_restore_us", fmt.Sprintf("%.2f", r.SaveRestoreUs)},
		{"restore_checked_us", fmt.Sprintf("%.2f", r.RestoreUs)},
		{"colours_mean", fmt.Sprintf("%.2f", r.ColoursMean)},
		{"colours_max", fmt.Sprint(r.ColoursMax)},
		{"overflow_mean", fmt.Sprintf("%.2f", r.OverflowMean)},
		{"overflow_max", fmt.Sprint(r.OverflowMax)},
		{"worker_share", shares(r.WorkerShare)},
		{"hash", r.Hash},
	} {
		fmt.Fprintf(w, "%-*s %s\n", NameWidth, l[0], l[1])
	}
}

// shares prints the workers' shares with commas between them, one token.
func shares(x []float64) string {
	out := make([]string, len(x))
	for k, v := range x {
		out[k] = fmt.Sprintf("%.3f", v)
	}
	return strings.Join(out, ",")
}
