package fleet

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/agones"
)

// sidecar is a stand-in for the Agones SDK sidecar's REST gateway: it
// records each call's path, and refuses one whose method or body the
// gateway would.
type sidecar struct {
	mu    sync.Mutex
	calls []string
	bad   []string
	srv   *httptest.Server
	// refuseReady is how many /ready calls to answer 503, as a sidecar
	// still starting does.
	refuseReady int
}

func newSidecar(t *testing.T) *sidecar {
	s := &sidecar{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		defer s.mu.Unlock()
		if r.Method != http.MethodPost || string(body) != "{}" || r.Header.Get("Content-Type") != "application/json" {
			s.bad = append(s.bad, r.Method+" "+r.URL.Path+" "+string(body))
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if r.URL.Path == "/ready" && s.refuseReady > 0 {
			s.refuseReady--
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		s.calls = append(s.calls, r.URL.Path)
		_, _ = w.Write([]byte("{}"))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *sidecar) recorded() (calls, bad []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls), slices.Clone(s.bad)
}

// sdk returns a client of s, found as a program finds the sidecar: from
// AGONES_SDK_HTTP_PORT.
func (s *sidecar) sdk(t *testing.T) *agones.SDK {
	port := s.srv.URL[strings.LastIndexByte(s.srv.URL, ':')+1:]
	sdk, err := agones.FromEnv(func(k string) string {
		if k == agones.PortEnv {
			return port
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	return sdk
}

// TestLifecycleCallsInOrder: Ready once the server takes players, Health
// at each tick while turns advance, none while they have stopped for 2 s,
// Health again once they go on, Shutdown at the end; in that order.
func TestLifecycleCallsInOrder(t *testing.T) {
	side := newSidecar(t)
	clock := newFakeClock()
	h := NewHealth(clock.Now)
	var log bytes.Buffer
	p, tick := lifecycle(side.sdk(t), h, &log)
	p.Start()
	p.Serving("127.0.0.1:4242")
	p.Turned(time.Millisecond, nil)
	tick(clock.Now().Add(time.Second))                  // health
	tick(clock.Now().Add(StallAfter - time.Nanosecond)) // health
	tick(clock.Now().Add(StallAfter))                   // no turn for 2 s: none
	tick(clock.Now().Add(2 * StallAfter))               // none
	clock.Add(2 * StallAfter)
	p.Turned(time.Millisecond, nil)
	tick(clock.Now().Add(time.Second)) // health
	p.Stopped(nil, "terminated")
	calls, bad := side.recorded()
	want := []string{"/ready", "/health", "/health", "/health", "/shutdown"}
	if !slices.Equal(calls, want) {
		t.Errorf("calls %v, want %v", calls, want)
	}
	if len(bad) != 0 || log.Len() != 0 {
		t.Errorf("refused calls %v; log %q", bad, log.String())
	}
}

// lifecycle returns a probe whose Agones lifecycle calls sdk, and the
// function that gives it a tick at a time and waits until it has dealt
// with it.
func lifecycle(sdk *agones.SDK, h *Health, log io.Writer) (*Probe, func(time.Time)) {
	ticks, dealt := make(chan time.Time), make(chan struct{})
	l := &Lifecycle{SDK: sdk, Health: h, Ticks: ticks, Log: log, tickDone: func() { dealt <- struct{}{} }}
	return &Probe{Health: h, Agones: l}, func(at time.Time) {
		ticks <- at
		<-dealt
	}
}

// TestLifecycleRetriesReady: a sidecar that is not up yet when the server
// listens gets Ready at the next tick, before any Health.
func TestLifecycleRetriesReady(t *testing.T) {
	side := newSidecar(t)
	side.refuseReady = 2
	clock := newFakeClock()
	h := NewHealth(clock.Now)
	var log bytes.Buffer
	p, tick := lifecycle(side.sdk(t), h, &log)
	p.Start()
	p.Serving("127.0.0.1:4242") // refused
	p.Turned(time.Millisecond, nil)
	tick(clock.Now()) // Ready again, refused
	tick(clock.Now()) // Ready
	tick(clock.Now()) // health
	p.Stopped(nil, "time")
	calls, _ := side.recorded()
	if want := []string{"/ready", "/health", "/shutdown"}; !slices.Equal(calls, want) {
		t.Errorf("calls %v, want %v", calls, want)
	}
	if !strings.Contains(log.String(), "agones: ready failed") {
		t.Errorf("log %q does not report the failed Ready", log.String())
	}
}

// TestFromEnv: the sidecar's port comes from AGONES_SDK_HTTP_PORT, 9358
// without it, and a value that is no port is refused with the range.
func TestFromEnv(t *testing.T) {
	for env, want := range map[string]string{"": "http://localhost:9358", "9400": "http://localhost:9400", " 59357 ": "http://localhost:59357"} {
		sdk, err := agones.FromEnv(func(string) string { return env })
		if err != nil || sdk.BaseURL != want {
			t.Errorf("%s=%q: %v, %v; want %s", agones.PortEnv, env, sdk, err, want)
		}
	}
	for _, env := range []string{"0", "65536", "http", "-1"} {
		if _, err := agones.FromEnv(func(string) string { return env }); err == nil || !strings.Contains(err.Error(), "1 to 65535") {
			t.Errorf("%s=%q: %v, want a refusal naming 1 to 65535", agones.PortEnv, env, err)
		}
	}
}

// TestLifecycleReadyBeforeShutdown: a server stopped at once after it
// listened still says Ready before Shutdown; one stopped before it
// listened (its socket could not be bound) says only Shutdown.
func TestLifecycleReadyBeforeShutdown(t *testing.T) {
	for _, listened := range []bool{true, false} {
		side := newSidecar(t)
		h := NewHealth(newFakeClock().Now)
		var log bytes.Buffer
		p, _ := lifecycle(side.sdk(t), h, &log)
		p.Start()
		if listened {
			p.Serving("127.0.0.1:4242")
			p.Stopped(nil, "terminated")
		} else {
			p.Close()
		}
		want := []string{"/shutdown"}
		if listened {
			want = []string{"/ready", "/shutdown"}
		}
		if calls, _ := side.recorded(); !slices.Equal(calls, want) {
			t.Errorf("listened %v: calls %v, want %v", listened, calls, want)
		}
	}
}
