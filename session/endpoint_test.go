package session

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/transport"
)

// TestEndpointReportsOversizedDatagram: a datagram no path can carry is the
// client's own bug and ends its turn with an error, where a datagram the
// link loses is not.
func TestEndpointReportsOversizedDatagram(t *testing.T) {
	w, sc, err := game.Build("arena", physics.DefaultConfig(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := predict.NewClient(predict.DefaultClientConfig(), w, sc, 77)
	net, err := transport.NewMemServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Connect(1)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEndpoint(c, conn)
	if err := e.Turn(0, 0); err != nil {
		t.Fatalf("a normal turn: %v", err)
	}
	e.sendNow(make([]byte, transport.MaxDatagram+1))
	if err := e.Turn(0, 0); !errors.Is(err, transport.ErrTooLarge) {
		t.Fatalf("after an oversized datagram: %v, want ErrTooLarge", err)
	}
}
