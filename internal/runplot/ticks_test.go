package runplot

import (
	"strings"
	"testing"
)

// TestPlotSecondsAreWholeNumbers: the plot's time axis is labelled at
// round whole seconds, 4 to 10 of them, for runs of 1 s to 10 minutes.
func TestPlotSecondsAreWholeNumbers(t *testing.T) {
	for _, span := range []float64{1, 5, 20, 21, 60, 100, 600} {
		var labels []string
		for _, tk := range (secondTicks{}).Ticks(0, span) {
			if tk.Label == "" {
				continue
			}
			if strings.ContainsAny(tk.Label, ".e") {
				t.Errorf("span %v: label %q is not a whole number", span, tk.Label)
			}
			labels = append(labels, tk.Label)
		}
		if len(labels) < 2 || len(labels) > 11 {
			t.Errorf("span %v: labels %q", span, labels)
		}
	}
}
