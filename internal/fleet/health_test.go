package fleet

import (
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/serve"
)

var sigterm = syscall.SIGTERM

// stallProbe passes every call on to its probe, and holds the loop in
// Turned while stalled: the test's hook into the loop.
type stallProbe struct {
	serve.Probe
	mu      sync.Mutex
	stall   chan struct{} // closed to let the loop go on; nil: not stalled
	stalled chan struct{} // a turn is being held
	turned  chan struct{} // a turn ran (buffered, one)
}

func (s *stallProbe) Turned(d time.Duration, read func(*serve.Counters)) {
	s.Probe.Turned(d, read)
	select {
	case s.turned <- struct{}{}:
	default:
	}
	s.mu.Lock()
	hold := s.stall
	s.mu.Unlock()
	if hold != nil {
		s.stalled <- struct{}{}
		<-hold
	}
}

// TestHealthzFollowsTheLoop: /readyz is 503 until the server listens, then
// 200; /healthz is 200 while turns advance, 503 once the loop has been
// held for 2 s (the clock is the test's), and 200 again once it turns.
func TestHealthzFollowsTheLoop(t *testing.T) {
	clock := newFakeClock()
	h := NewHealth(clock.Now)
	handler := Handler(h, nil)
	if code, _ := get(t, handler, "/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("readyz before the run: %d, want 503", code)
	}
	if code, _ := get(t, handler, "/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("healthz before the run: %d, want 503", code)
	}
	sp := &stallProbe{Probe: &Probe{Health: h}, stalled: make(chan struct{}), turned: make(chan struct{}, 1)}
	r := startRun(t, sp, false)
	if code, _ := get(t, handler, "/readyz"); code != http.StatusOK {
		t.Errorf("readyz while listening: %d, want 200", code)
	}
	<-sp.turned
	if code, body := get(t, handler, "/healthz"); code != http.StatusOK {
		t.Errorf("healthz while turning: %d %q, want 200", code, body)
	}

	hold := make(chan struct{})
	sp.mu.Lock()
	sp.stall = hold
	sp.mu.Unlock()
	<-sp.stalled // the loop is held after a turn
	clock.Add(StallAfter - time.Millisecond)
	if code, _ := get(t, handler, "/healthz"); code != http.StatusOK {
		t.Errorf("healthz just under 2 s after the last turn: %d, want 200", code)
	}
	clock.Add(time.Millisecond)
	if code, body := get(t, handler, "/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("healthz 2 s after the last turn: %d %q, want 503", code, body)
	}
	sp.mu.Lock()
	sp.stall = nil
	sp.mu.Unlock()
	<-sp.turned // drain the note of the held turn
	close(hold)
	<-sp.turned // a turn after the stall
	if code, _ := get(t, handler, "/healthz"); code != http.StatusOK {
		t.Errorf("healthz after the loop went on: %d, want 200", code)
	}
	r.stop()
	if r.err != nil {
		t.Fatal(r.err)
	}
	if code, _ := get(t, handler, "/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("readyz after the run: %d, want 503", code)
	}
}
