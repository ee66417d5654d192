package predict

import (
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
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
	h.c.view.askXfer = true
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
// refuses what does not decode or fit with protocol.ErrRejected (changing nothing
// then), and otherwise keeps a world it can restore and predict from.
func fuzzClient(f *testing.F, mode Mode) {
	down, _ := seedMessages(f, mode)
	for _, b := range down {
		f.Add(b)
		if k, _ := wire.Kind(b); k == wire.KindSnapshot {
			// Masks naming views the client holds or not, near and far.
			f.Add(withAcks(f, b, 1))
			f.Add(withAcks(f, b, 1<<63|1<<20))
		}
	}
	w, _ := game.MustBuild("arena")
	n := w.NumBodies()
	hashes := make([]uint64, wire.Buckets(n, wire.BucketBodies(n)))
	f.Add(wire.AppendRepairHashes(nil, &wire.RepairHashes{Tick: 20, Size: uint16(wire.BucketBodies(n)), Bodies: uint32(n), Hashes: hashes}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		h := newHarness(t, "arena", game.Options{}, mode, 0)
		for i := 0; i < 40; i++ {
			h.clientStep(script(h.c.Tick()))
		}
		before := h.c.World().Hash()
		err := h.c.Receive(b)
		if err != nil {
			if !errors.Is(err, protocol.ErrRejected) {
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
