// Package fleet is what an operator's fleet sees of a running cube server:
// Prometheus metrics, the health and readiness endpoints, and the Agones
// lifecycle, all fed by one serve.Probe.
package fleet

import (
	"net/http"
	"sync/atomic"
	"time"
)

// StallAfter is how long the loop may go without a turn before the
// server is unhealthy: 128 ticks, far beyond any turn's budget, short
// enough for a fleet to replace a stuck server quickly.
const StallAfter = 2 * time.Second

// Health says whether the loop's turns advance and whether the server
// takes players. Its methods are safe from any goroutine.
type Health struct {
	now   func() time.Time
	base  time.Time
	last  atomic.Int64 // the last turn, nanoseconds after base; -1 before the first
	ready atomic.Bool
}

// NewHealth returns a Health that reads the time from now (time.Now in a
// program).
func NewHealth(now func() time.Time) *Health {
	h := &Health{now: now, base: now()}
	h.last.Store(-1)
	return h
}

// serving marks the server ready, and counts as a turn so that the first
// one has StallAfter to come.
func (h *Health) serving() {
	h.turned()
	h.ready.Store(true)
}

// turned notes a turn now.
func (h *Health) turned() { h.last.Store(int64(h.now().Sub(h.base))) }

// stopped marks the server as no longer taking players.
func (h *Health) stopped() { h.ready.Store(false) }

// HealthyAt says whether a turn ran within StallAfter before t.
func (h *Health) HealthyAt(t time.Time) bool {
	last := h.last.Load()
	return last >= 0 && t.Sub(h.base)-time.Duration(last) < StallAfter
}

// Healthy is HealthyAt now.
func (h *Health) Healthy() bool { return h.HealthyAt(h.now()) }

// Ready says whether the server takes players.
func (h *Health) Ready() bool { return h.ready.Load() }

// Healthz answers 200 while turns advance and 503 once none has run for
// StallAfter (a stalled step or a deadlock), or before the first.
func (h *Health) Healthz(w http.ResponseWriter, _ *http.Request) {
	answer(w, h.Healthy(), "turns advance\n", "no turn for 2 s\n")
}

// Readyz answers 200 once the server takes players, 503 before and after.
func (h *Health) Readyz(w http.ResponseWriter, _ *http.Request) {
	answer(w, h.Ready(), "taking players\n", "not taking players\n")
}

func answer(w http.ResponseWriter, ok bool, yes, no string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(no))
		return
	}
	_, _ = w.Write([]byte(yes))
}
