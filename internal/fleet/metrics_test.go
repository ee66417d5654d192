package fleet

import (
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape parses what /metrics answers.
func scrape(t *testing.T, m *Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	code, body := get(t, Handler(NewHealth(time.Now), m), "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, body)
	}
	return fams
}

// value returns the sample of family name whose labels include want
// (label=value pairs), and fails the test when there is none.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	t.Helper()
	f := fams[name]
	if f == nil {
		t.Errorf("no %s", name)
		return -1
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(want); i += 2 {
			found := false
			for _, l := range m.Label {
				found = found || l.GetName() == want[i] && l.GetValue() == want[i+1]
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	t.Errorf("no %s%v", name, want)
	return -1
}

// TestMetricsAgreeWithTheSummary: a loopback session with one client; the
// metrics move while it plays, and at the end every counter equals the
// figure the server's own summary prints.
func TestMetricsAgreeWithTheSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	m := NewMetrics("cube test")
	r := startRun(t, &Probe{Health: NewHealth(time.Now), Metrics: m}, true)
	before := scrape(t, m)
	rep := playClient(t, r, 1)
	if !rep.Final.InSync {
		t.Errorf("the client ended out of sync")
	}
	during := scrape(t, m)
	<-r.done // -exit-when-empty: the client's leaving ends the run
	if r.err != nil {
		t.Fatal(r.err)
	}
	s := r.sum
	if s.Stopped != "empty" {
		t.Errorf("stopped %q, want empty", s.Stopped)
	}
	after := scrape(t, m)
	for _, name := range []string{"cube_server_ticks_total", "cube_server_inputs_applied_total", "cube_server_snapshots_total"} {
		if a, b := value(t, before, name), value(t, during, name); !(b > a) {
			t.Errorf("%s did not move during the session: %v then %v", name, a, b)
		}
	}
	want := map[string]float64{
		"cube_server_turns_total":                 float64(s.Turns),
		"cube_server_tick_seconds":                float64(s.Turns), // one observation a turn
		"cube_server_ticks_total":                 float64(s.Ticks),
		"cube_server_stalls_total":                float64(s.Stalls),
		"cube_server_players":                     0,
		"cube_server_players_joined_total":        float64(s.Players.Joined),
		"cube_server_players_left_total":          float64(s.Players.Left),
		"cube_server_players_timed_out_total":     float64(s.Players.TimedOut),
		"cube_server_inputs_applied_total":        float64(s.Inputs.Applied),
		"cube_server_inputs_repeated_total":       float64(s.Inputs.Repeated),
		"cube_server_inputs_late_total":           float64(s.Inputs.Late),
		"cube_server_receive_queue_dropped_total": float64(s.Received.DroppedQueue),
		"cube_server_receive_over_budget_total":   float64(s.Received.OverBudget),
		"cube_server_send_dropped_total":          float64(s.Sent.Dropped),
		"cube_server_bogus_total":                 float64(s.Bogus.Total),
		"cube_server_relays_total":                0, // state sync
		"cube_server_build_info":                  1,
	}
	for name, w := range want {
		if got := value(t, after, name); got != w {
			t.Errorf("%s = %v at the end, the summary says %v", name, got, w)
		}
	}
	if s.Players.Joined != 1 || s.Inputs.Applied == 0 || s.Sent.Datagrams == 0 {
		t.Errorf("the session served nothing: %+v", s)
	}
	if got := value(t, after, "cube_server_inputs_refused_total", "reason", "too_far") + value(t, after, "cube_server_inputs_refused_total", "reason", "too_fast"); got != float64(s.Inputs.Refused+s.Inputs.TooFast) {
		t.Errorf("inputs refused %v, the summary says %d + %d", got, s.Inputs.Refused, s.Inputs.TooFast)
	}
	var rejected float64
	for _, why := range []string{"malformed", "shape", "tick", "bounds", "rate"} {
		rejected += value(t, after, "cube_server_messages_rejected_total", "reason", why)
	}
	if rejected != float64(s.Inputs.Rejected) {
		t.Errorf("messages rejected %v, the summary says %d", rejected, s.Inputs.Rejected)
	}
	for dir, w := range map[string][2]uint64{"in": {s.Received.Datagrams, s.Received.Bytes}, "out": {s.Sent.Datagrams, s.Sent.Bytes}} {
		if d, b := value(t, after, "cube_server_datagrams_total", "direction", dir), value(t, after, "cube_server_bytes_total", "direction", dir); d != float64(w[0]) || b != float64(w[1]) {
			t.Errorf("%s: %v datagrams, %v bytes; the summary says %d, %d", dir, d, b, w[0], w[1])
		}
	}
	if got := value(t, after, "cube_server_snapshots_total"); got == 0 {
		t.Error("no snapshot counted")
	}
	if got := value(t, after, "cube_server_repairs_started_total"); got < 1 || value(t, after, "cube_server_repairs_taken_total") > got {
		t.Errorf("repairs: %v started (the join's at least), %v taken", got, value(t, after, "cube_server_repairs_taken_total"))
	}
}
