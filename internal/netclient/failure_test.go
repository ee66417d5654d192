package netclient

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// TestFailureSaysWhyInOneLine: a refusal names the server, its reason
// without predict's prefix, and what this client built; a lost connection
// says what the transport says; any other error is not a failure of the
// turn's kind.
func TestFailureSaysWhyInOneLine(t *testing.T) {
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(predict.DefaultClientConfig(), w, sc)
	refused := fmt.Errorf("turn: %w", &predict.RefusedError{Why: "it runs another scene"})
	msg, ok := Failure(refused, "127.0.0.1:4242", c)
	want := fmt.Sprintf("the server at 127.0.0.1:4242 refused this client: it runs another scene (this client built %s in state sync)", sc.ID)
	if !ok || msg != want {
		t.Errorf("refusal: %q, %v; want %q", msg, ok, want)
	}
	cfg := predict.DefaultClientConfig()
	cfg.Mode = protocol.ModeInputs
	inputs := NewClient(cfg, w, sc)
	msg, ok = Failure(refused, "127.0.0.1:4242", inputs)
	want = fmt.Sprintf("the server at 127.0.0.1:4242 refused this client: it runs another scene (this client built %s in input sync)", sc.ID)
	if !ok || msg != want {
		t.Errorf("refusal in input sync: %q, %v; want %q", msg, ok, want)
	}
	lost := &transport.LostError{Addr: "127.0.0.1:4242", Reason: transport.ReasonClosed, Detail: "server closed"}
	if msg, ok := Failure(fmt.Errorf("turn: %w", lost), "127.0.0.1:4242", c); !ok || msg != lost.Error() || !strings.Contains(msg, "server closed") {
		t.Errorf("lost: %q, %v", msg, ok)
	}
	// Only the typed refusal is one: text that merely reads like it is not.
	if _, ok := Failure(fmt.Errorf("turn: %w: it runs another scene", predict.ErrRefused), "127.0.0.1:4242", c); ok {
		t.Error("a bare ErrRefused taken for a refusal with a reason")
	}
	if _, ok := Failure(errors.New("disk full"), "127.0.0.1:4242", c); ok {
		t.Error("another error taken for a refusal or a lost server")
	}
}
