package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/transport"
)

// TestEndpointReportsOversizedDatagram: a datagram no path can carry is the
// client's own bug and ends its turn with an error, where a datagram the
// link loses is not.
func TestEndpointReportsOversizedDatagram(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	net, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Connect(1)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEndpoint(h.c, conn)
	if err := e.Turn(0, 0); err != nil {
		t.Fatalf("a normal turn: %v", err)
	}
	e.sendNow(make([]byte, transport.MaxDatagram+1))
	if err := e.Turn(0, 0); !errors.Is(err, transport.ErrTooLarge) {
		t.Fatalf("after an oversized datagram: %v, want ErrTooLarge", err)
	}
}
