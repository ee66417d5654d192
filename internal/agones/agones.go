// Package agones is a client of the Agones SDK sidecar's REST gateway:
// the lifecycle calls a game server makes (Ready, Health, Shutdown). It
// follows the stable SDK service agones.dev.sdk.SDK of Agones 1.x
// (sdk.proto: each call a POST of an empty JSON object, answered with an
// empty one), which is the same API the Go SDK speaks over gRPC; the Go
// SDK module is not used.
package agones

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultPort is the sidecar's HTTP port when AGONES_SDK_HTTP_PORT is
// not set.
const DefaultPort = 9358

// PortEnv names the environment variable Agones sets to the sidecar's
// HTTP port.
const PortEnv = "AGONES_SDK_HTTP_PORT"

// callTimeout bounds one call: the sidecar is on the same pod.
const callTimeout = 5 * time.Second

// SDK calls the sidecar at BaseURL.
type SDK struct {
	BaseURL string // http://localhost:PORT
	Client  *http.Client
}

// FromEnv returns the SDK of the sidecar whose port lookup reads (os.Getenv
// in a program): AGONES_SDK_HTTP_PORT, or DefaultPort when unset. The
// gateway listens on localhost only.
func FromEnv(lookup func(string) string) (*SDK, error) {
	port := DefaultPort
	if s := strings.TrimSpace(lookup(PortEnv)); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%s=%q is not a port: want 1 to 65535", PortEnv, s)
		}
		port = n
	}
	return &SDK{BaseURL: fmt.Sprintf("http://localhost:%d", port), Client: &http.Client{Timeout: callTimeout}}, nil
}

// Env is os.Getenv, for FromEnv.
func Env(name string) string { return os.Getenv(name) }

// Ready tells Agones the server takes players: the GameServer becomes
// Ready and can be allocated.
func (s *SDK) Ready(ctx context.Context) error { return s.post(ctx, "/ready") }

// Health is one health ping; Agones marks the GameServer Unhealthy when
// pings stop for longer than its health settings allow.
func (s *SDK) Health(ctx context.Context) error { return s.post(ctx, "/health") }

// Shutdown tells Agones the server is done: the GameServer goes to
// Shutdown and its pod is deleted.
func (s *SDK) Shutdown(ctx context.Context) error { return s.post(ctx, "/shutdown") }

// post sends an empty JSON object to path and wants 200 back.
func (s *SDK) post(ctx context.Context, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.BaseURL+path, strings.NewReader("{}"))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("agones %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("agones %s: %s %s", path, resp.Status, strings.TrimSpace(string(body)))
	}
	return nil
}

// ErrNotReady is returned by Lifecycle.Run when the run stopped before
// Ready went through.
var ErrNotReady = errors.New("agones: never marked Ready")
