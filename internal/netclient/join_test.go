package netclient

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/transport"
)

// TestNoStateEndsTheRun: against a server that never answers (its
// datagrams are read by nobody), the client gives up after its join's
// wait with a NoStateError that Failure words in one line, instead of
// playing and draining with nothing and exiting 0.
func TestNoStateEndsTheRun(t *testing.T) {
	srv, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := srv.Connect(1)
	if err != nil {
		t.Fatal(err)
	}
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(predict.DefaultClientConfig(), w, sc)
	p, _ := netsim.PresetByName("perfect")
	ctl := runctl.New(nil)
	defer ctl.Stop()
	start := time.Now()
	_, err = Run(Config{Addr: "mem", Conn: conn, Client: c, Preset: p, Seed: 1, Seconds: 10, JoinWait: 300 * time.Millisecond}, ctl)
	var none *session.NoStateError
	if !errors.As(err, &none) || time.Since(start) > 20*time.Second { // not the 10 s of play and 60 of drain
		t.Fatalf("after %v: %v, want a NoStateError after 300 ms", time.Since(start), err)
	}
	if msg, ok := Failure(err, "mem", c); !ok || !strings.HasPrefix(msg, "no state from the server at mem in 300ms: ") || strings.Contains(msg, "\n") {
		t.Errorf("Failure: %q, %v", msg, ok)
	}
}
