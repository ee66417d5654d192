package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/serve"
)

// TestServerFleetFlagsRefused: a -metrics that is no TCP address, or whose
// port is out of range, is a usage error naming the range; an
// AGONES_SDK_HTTP_PORT that is no port stops -agones before it listens.
func TestServerFleetFlagsRefused(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"9100", "is not an address: want HOST:PORT"},
		{"127.0.0.1:65536", "the port must be a number from 0 to 65535"},
		{"127.0.0.1:x", "the port must be a number from 0 to 65535"},
	} {
		code, _, errs := runCube("server", "-metrics", c.arg, "-seconds", "0.1")
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("-metrics %s: exit %d, %q; want 2 and %q", c.arg, code, errs, c.want)
		}
	}
	t.Setenv("AGONES_SDK_HTTP_PORT", "99999")
	code, out, errs := runCube("server", "-listen", "127.0.0.1:0", "-agones", "-seconds", "0.1")
	if code != 1 || !strings.Contains(errs, "AGONES_SDK_HTTP_PORT=\"99999\" is not a port: want 1 to 65535") || strings.Contains(out, "listening") {
		t.Errorf("-agones with a bad port: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// metricsLine is what cube server prints on stderr when -metrics is on.
var metricsLine = regexp.MustCompile(`metrics on http://(\S+)/metrics, health on /healthz and /readyz`)

// TestServerInAFleet: `cube server -metrics :0 -agones -exit-when-empty`
// serves its metrics on loopback, every metric the operations page names
// is there while a client plays, the Agones sidecar (a recording stand-in)
// hears Ready first, Health while turns advance and Shutdown last, and the
// server stops by itself when its one player leaves.
func TestServerInAFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	var mu sync.Mutex
	var calls []string
	side := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.Path)
		mu.Unlock()
		_, _ = w.Write([]byte("{}"))
	}))
	defer side.Close()
	t.Setenv("AGONES_SDK_HTTP_PORT", side.URL[strings.LastIndexByte(side.URL, ':')+1:])

	s := startServer(t, "-metrics", ":0", "-agones", "-exit-when-empty", "-json")
	m := metricsLine.FindStringSubmatch(s.errs.String())
	if m == nil || !strings.HasPrefix(m[1], "127.0.0.1:") {
		t.Fatalf("stderr %q: no metrics line on 127.0.0.1", s.errs.String())
	}
	base := "http://" + m[1]
	for path, want := range map[string]int{"/readyz": 200, "/healthz": 200} {
		if code, _ := httpGet(t, base+path); code != want {
			t.Errorf("GET %s: %d, want %d", path, code, want)
		}
	}
	done := make(chan clientResult, 1)
	go func() { done <- runTestClient(s, "-seconds", "2") }()
	var during string
	for during == "" || !strings.Contains(during, "cube_server_players 1") {
		select {
		case r := <-done:
			r.check(t, "client")
			t.Fatalf("the client ended before /metrics counted it: %s", during)
		default:
		}
		_, during = httpGet(t, base+"/metrics")
		time.Sleep(50 * time.Millisecond)
	}
	for _, name := range []string{
		"cube_server_tick_seconds_bucket", "cube_server_ticks_total", "cube_server_turns_total", "cube_server_stalls_total",
		"cube_server_players", "cube_server_inputs_applied_total", "cube_server_inputs_repeated_total", "cube_server_inputs_late_total",
		`cube_server_inputs_refused_total{reason="too_far"}`, `cube_server_inputs_refused_total{reason="too_fast"}`,
		`cube_server_messages_rejected_total{reason="malformed"}`, `cube_server_datagrams_total{direction="in"}`,
		`cube_server_bytes_total{direction="out"}`, "cube_server_snapshots_total", "cube_server_relays_total",
		"cube_server_repairs_started_total", "cube_server_repairs_taken_total", "cube_server_receive_queue_dropped_total",
		"cube_server_build_info{", "go_goroutines",
	} {
		if !strings.Contains(during, "\n"+name) {
			t.Errorf("/metrics during a session has no %s", name)
		}
	}
	r := <-done
	r.check(t, "client")
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop within 30 s of its last player leaving")
	}
	var sum serve.Summary
	err := json.Unmarshal([]byte(s.out.String()), &sum)
	for deadline := time.Now().Add(5 * time.Second); err != nil && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // the copy of stdout ends shortly after the run
		err = json.Unmarshal([]byte(s.out.String()), &sum)
	}
	if s.code != 0 || err != nil || sum.Stopped != "empty" {
		t.Errorf("server exit %d, summary %q (%v): want it stopped by \"empty\"", s.code, s.out.String(), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) < 2 || calls[0] != "POST /ready" || calls[len(calls)-1] != "POST /shutdown" {
		t.Fatalf("Agones calls %v: want Ready first and Shutdown last", calls)
	}
	if mid := calls[1 : len(calls)-1]; slices.ContainsFunc(mid, func(c string) bool { return c != "POST /health" }) {
		t.Errorf("Agones calls %v: only Health between Ready and Shutdown", calls)
	}
}

// httpGet answers a GET of url, on loopback.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestServerAgonesShutdownOnSIGTERM: a server under Agones that is sent
// SIGTERM (as Kubernetes does to delete its pod) tells the sidecar
// Shutdown before it exits, after its Ready.
func TestServerAgonesShutdownOnSIGTERM(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	side := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, r.URL.Path)
		mu.Unlock()
		_, _ = w.Write([]byte("{}"))
	}))
	defer side.Close()
	t.Setenv("AGONES_SDK_HTTP_PORT", side.URL[strings.LastIndexByte(side.URL, ':')+1:])
	s := startServer(t, "-agones", "-json")
	if m := s.stop(t); m.Stopped != "terminated" {
		t.Errorf("stopped %q, want terminated", m.Stopped)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) < 2 || calls[0] != "/ready" || calls[len(calls)-1] != "/shutdown" {
		t.Errorf("Agones calls %v: want /ready first and /shutdown last", calls)
	}
}
