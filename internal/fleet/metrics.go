package fleet

import (
	"runtime"
	"sync"
	"time"

	"github.com/cubelab/cube/internal/serve"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// refreshTurns is how often the counters are read from the loop: every
// 16 turns (a quarter of a second), far more often than a scrape, and
// cheap for the loop (a read looks at every connection).
const refreshTurns = 16

// Metrics are a cube server's Prometheus metrics: the tick histogram,
// observed every turn, and counters read from the loop every
// refreshTurns turns and at its end.
type Metrics struct {
	Registry *prometheus.Registry
	tick     prometheus.Histogram

	mu    sync.Mutex
	c     serve.Counters // the newest read
	turns uint64         // turns observed
}

// TickBuckets are the tick histogram's upper bounds in seconds: 62.5 µs
// to 128 ms by doubling, around the 15.625 ms a tick lasts.
var TickBuckets = prometheus.ExponentialBuckets(62.5e-6, 2, 12)

// NewMetrics returns the metrics of a server whose build is version,
// registered with the Go runtime's and the process's collectors.
func NewMetrics(version string) *Metrics {
	m := &Metrics{Registry: prometheus.NewRegistry()}
	m.tick = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "cube_server_tick_seconds",
		Help:    "Duration of each turn of the server's loop: receive, simulate, send.",
		Buckets: TickBuckets,
	})
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "cube_server_build_info",
		Help:        "The server's build: its version line and Go version; always 1.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version()},
	})
	build.Set(1)
	m.Registry.MustRegister(m.tick, build, (*counterCollector)(m),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// turned observes a turn's duration and, every refreshTurns turns,
// reads the counters.
func (m *Metrics) turned(d time.Duration, read func(*serve.Counters)) {
	m.tick.Observe(d.Seconds())
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.turns++; m.turns%refreshTurns == 1 {
		read(&m.c)
	}
}

// set takes c as the newest counters (the run's final ones).
func (m *Metrics) set(c *serve.Counters) {
	m.mu.Lock()
	m.c = *c
	m.mu.Unlock()
}

// counterCollector exports the newest counters at each scrape.
type counterCollector Metrics

// desc is one counter or gauge read from serve.Counters.
type desc struct {
	d     *prometheus.Desc
	kind  prometheus.ValueType
	value func(c *serve.Counters) float64
}

func counter(name, help string, value func(c *serve.Counters) float64) desc {
	return desc{prometheus.NewDesc(name, help, nil, nil), prometheus.CounterValue, value}
}

var (
	descs = []desc{
		counter("cube_server_turns_total", "Turns of the server's loop, one a tick.", func(c *serve.Counters) float64 { return float64(c.Turns) }),
		counter("cube_server_ticks_total", "Ticks simulated (the clock starts with the first client).", func(c *serve.Counters) float64 { return float64(c.Ticks) }),
		counter("cube_server_stalls_total", "Times the loop fell behind by more than a few ticks and dropped the debt.", func(c *serve.Counters) float64 { return float64(c.Stalls) }),
		counter("cube_server_stalled_seconds_total", "Wall-clock time dropped by stalls.", func(c *serve.Counters) float64 { return c.LostSeconds }),
		{prometheus.NewDesc("cube_server_players", "Clients in a player slot.", nil, nil), prometheus.GaugeValue, func(c *serve.Counters) float64 { return float64(c.Players) }},
		counter("cube_server_players_joined_total", "Clients that took a player slot.", func(c *serve.Counters) float64 { return float64(c.Joined) }),
		counter("cube_server_players_left_total", "Clients that left their slot, timed out or not.", func(c *serve.Counters) float64 { return float64(c.Left) }),
		counter("cube_server_players_timed_out_total", "Clients that left their slot by timing out.", func(c *serve.Counters) float64 { return float64(c.TimedOut) }),
		counter("cube_server_inputs_applied_total", "Player-ticks simulated with the client's own input.", func(c *serve.Counters) float64 { return float64(c.InputsApplied) }),
		counter("cube_server_inputs_repeated_total", "Player-ticks simulated with the player's last input repeated, none having arrived.", func(c *serve.Counters) float64 { return float64(c.InputsRepeated) }),
		counter("cube_server_inputs_late_total", "Inputs that arrived after their tick was simulated.", func(c *serve.Counters) float64 { return float64(c.InputsLate) }),
		counter("cube_server_snapshots_total", "Snapshots sent (state sync).", func(c *serve.Counters) float64 { return choose(!c.Relays, c.Snapshots) }),
		counter("cube_server_relays_total", "Relays of the applied inputs sent (input sync).", func(c *serve.Counters) float64 { return choose(c.Relays, c.Snapshots) }),
		counter("cube_server_repairs_started_total", "Transfers of the whole state started (joins and repairs).", func(c *serve.Counters) float64 { return float64(c.RepairsStarted) }),
		counter("cube_server_repairs_taken_total", "Transfers of the whole state that their client took.", func(c *serve.Counters) float64 { return float64(c.RepairsTaken) }),
		counter("cube_server_receive_queue_dropped_total", "Datagrams dropped because their connection's share of the receive queue was full.", func(c *serve.Counters) float64 { return float64(c.RecvDropped) }),
		counter("cube_server_receive_over_budget_total", "Datagrams left for a later turn because a turn's time for what arrived ran out.", func(c *serve.Counters) float64 { return float64(c.OverBudget) }),
		counter("cube_server_send_dropped_total", "Datagrams dropped by a full send queue or the path's size.", func(c *serve.Counters) float64 { return float64(c.SentDropped) }),
		counter("cube_server_bogus_total", "Datagrams and connection attempts that were not a client's (not QUIC, malformed, refused, failed handshakes).", func(c *serve.Counters) float64 { return float64(c.Bogus) }),
	}
	refusedDesc  = prometheus.NewDesc("cube_server_inputs_refused_total", "Inputs refused, by reason: too_far counts inputs for ticks the client cannot have reached (or from no player), too_fast counts Input messages over the client's rate.", []string{"reason"}, nil)
	rejectedDesc = prometheus.NewDesc("cube_server_messages_rejected_total", "Messages from clients that did not decode or fit, dropped, by reason.", []string{"reason"}, nil)
	dgramDesc    = prometheus.NewDesc("cube_server_datagrams_total", "Datagrams, by direction: in (received) or out (sent).", []string{"direction"}, nil)
	bytesDesc    = prometheus.NewDesc("cube_server_bytes_total", "Payload bytes of the datagrams, by direction: in (received) or out (sent).", []string{"direction"}, nil)
)

func choose(yes bool, n uint64) float64 {
	if yes {
		return float64(n)
	}
	return 0
}

// Describe implements prometheus.Collector.
func (cc *counterCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range descs {
		ch <- d.d
	}
	ch <- refusedDesc
	ch <- rejectedDesc
	ch <- dgramDesc
	ch <- bytesDesc
}

// Collect implements prometheus.Collector.
func (cc *counterCollector) Collect(ch chan<- prometheus.Metric) {
	cc.mu.Lock()
	c := cc.c
	cc.mu.Unlock()
	for _, d := range descs {
		ch <- prometheus.MustNewConstMetric(d.d, d.kind, d.value(&c))
	}
	ch <- prometheus.MustNewConstMetric(refusedDesc, prometheus.CounterValue, float64(c.InputsTooFar), "too_far")
	ch <- prometheus.MustNewConstMetric(refusedDesc, prometheus.CounterValue, float64(c.InputsTooFast), "too_fast")
	for r := protocol.Reason(0); r < protocol.Reason(len(c.Rejected)); r++ {
		ch <- prometheus.MustNewConstMetric(rejectedDesc, prometheus.CounterValue, float64(c.Rejected[r]), r.String())
	}
	ch <- prometheus.MustNewConstMetric(dgramDesc, prometheus.CounterValue, float64(c.RecvDatagrams), "in")
	ch <- prometheus.MustNewConstMetric(dgramDesc, prometheus.CounterValue, float64(c.SentDatagrams), "out")
	ch <- prometheus.MustNewConstMetric(bytesDesc, prometheus.CounterValue, float64(c.RecvBytes), "in")
	ch <- prometheus.MustNewConstMetric(bytesDesc, prometheus.CounterValue, float64(c.SentBytes), "out")
}
