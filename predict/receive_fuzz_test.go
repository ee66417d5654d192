package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/internal/tick"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/wire"
)

// seedMessages returns real messages of a short session in mode: what the
// server sent (Welcome, snapshots or relays, fragments) and what the client
// sent (Hello, inputs, Have).
func seedMessages(t testing.TB, mode Mode) (down, up [][]byte) {
	h := newHarness(t, "arena", game.Options{}, mode, 0)
	for i := 0; i < 30; i++ {
		h.clientStep(script(h.c.Tick()))
		up = append(up, h.up...)
		h.deliverUp()
		if i == 10 {
			h.s.Nudge(0, physics.Vec3{X: 1})
		}
		h.serverSend(true)
		down = append(down, h.down...)
		h.deliverDown()
	}
	// A transfer's fragments, and the client's Have.
	h.c.askXfer = true
	h.clientStep(0)
	h.deliverUp()
	h.serverSend(false)
	down = append(down, h.down...)
	h.down = nil
	h.clientStep(0)
	up = append(up, h.up...)
	return down, up
}

// fuzzClient checks that whatever arrives, the client never panics,
// refuses what does not decode or fit with wire.ErrRejected (changing nothing
// then), and otherwise keeps a world it can restore and predict from.
func fuzzClient(f *testing.F, mode Mode) {
	down, _ := seedMessages(f, mode)
	for _, b := range down {
		f.Add(b)
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		h := newHarness(t, "arena", game.Options{}, mode, 0)
		for i := 0; i < 40; i++ {
			h.clientStep(script(h.c.Tick()))
		}
		before := h.c.World().Hash()
		err := h.c.Receive(b)
		if err != nil {
			if !errors.Is(err, wire.ErrRejected) {
				t.Fatalf("peer bytes gave a non-rejection error: %v", err)
			}
			if h.c.World().Hash() != before {
				t.Fatal("a rejected message changed the world")
			}
		}
		if err := h.c.World().Check(h.c.World().State()); err != nil {
			t.Fatalf("the client's world is no longer valid: %v", err)
		}
		h.clientStep(0)
	})
}

func FuzzClientReceiveState(f *testing.F)  { fuzzClient(f, StateSync) }
func FuzzClientReceiveInputs(f *testing.F) { fuzzClient(f, InputSync) }

// FuzzServerReceive feeds arbitrary bytes to a server with a client: it
// never panics, refuses what does not decode with wire.ErrRejected, never goes
// beyond what the client can have reached, and keeps a world it can
// restore and snapshot.
func FuzzServerReceive(f *testing.F) {
	for _, mode := range []Mode{StateSync, InputSync} {
		_, up := seedMessages(f, mode)
		for _, b := range up {
			f.Add(b, uint8(mode))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, mode uint8) {
		h := newHarness(t, "arena", game.Options{}, Mode(mode%2), 0)
		err := h.s.Receive(h.now, 1, b)
		if err != nil && !errors.Is(err, wire.ErrRejected) {
			t.Fatalf("peer bytes gave a non-rejection error: %v", err)
		}
		if tick.After(h.s.Tick(), h.s.Limit(h.now, 0)+1) {
			t.Fatalf("server reached tick %d, beyond its limit %d", h.s.Tick(), h.s.Limit(h.now, 0))
		}
		if err := h.s.World().Check(h.s.World().State()); err != nil {
			t.Fatalf("the server's world is no longer valid: %v", err)
		}
		h.serverSend(true)
		for _, m := range h.down {
			if _, err := wire.Kind(m); err != nil || len(m) > wire.MaxMessage {
				t.Fatalf("the server sent a bad message: %v", err)
			}
		}
	})
}
