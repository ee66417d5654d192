package predict

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// withAcks returns snapshot b with its ack mask replaced by acks.
func withAcks(t testing.TB, b []byte, acks uint64) []byte {
	t.Helper()
	_, n := binary.Uvarint(b[6:]) // the baseline's distance, after kind, version and tick
	at := 6 + n                   // the flags
	rest := at + 1
	if b[at]&wire.HasAcks != 0 {
		rest += 1 + int(b[at+1])
	}
	head := []byte{b[at] &^ wire.HasAcks}
	if acks != 0 {
		head[0] |= wire.HasAcks
		head = append(head, 0)
		for m := acks; m != 0; m >>= 8 {
			head[1]++
			head = append(head, byte(m))
		}
	}
	return slices.Concat(b[:at], head, b[rest:])
}

// asksTransfer reports whether the client's newest Input asks for a
// transfer.
func (h *harness) asksTransfer() bool {
	for _, b := range slices.Backward(h.up) {
		var m wire.Input
		if err := wire.DecodeInput(b, &m); err == nil {
			return m.Flags&wire.AskTransfer != 0
		}
	}
	return false
}

// tamperedRun runs n ticks like run with a round trip of lag snapshots,
// giving the client every snapshot through tamper (fragments as they
// are), and returns the ticks until the client asked for a transfer (n if
// it never did) and the snapshots it refused.
func (h *harness) tamperedRun(n, lag int, tamper func(b []byte) []byte) (asked, refused int) {
	h.t.Helper()
	var queue [][][]byte
	asked = n
	for i := 0; i < n; i++ {
		h.clientStep(script(h.c.Tick()))
		if asked == n && h.asksTransfer() {
			asked = i
		}
		h.deliverUp()
		h.serverSend(true)
		queue = append(queue, h.down)
		h.down = nil
		if len(queue) <= lag {
			continue
		}
		for _, b := range queue[0] {
			k, _ := wire.Kind(b)
			if h.noRelays && k == wire.KindRelay {
				continue
			}
			if k == wire.KindSnapshot {
				b = tamper(b)
			}
			if err := h.c.Receive(b); err != nil {
				if !errors.Is(err, protocol.ErrRejected) {
					h.t.Fatal(err)
				}
				refused++
			}
		}
		queue = queue[1:]
	}
	return asked, refused
}

// TestSnapshotNamingAViewNotHeldAsksRepair: snapshots whose masks name a
// view the client never had (a server gone wrong, or hostile) are refused
// and counted, never taken; when that goes on, the client asks for the
// whole state, and once the snapshots are right again it is back in step
// with the server.
func TestSnapshotNamingAViewNotHeldAsksRepair(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.run(40, 4)
	before := h.c.Stats.Rejected[protocol.RejectTick]
	xfers := h.c.Stats.Transfers
	never := func(b []byte) []byte {
		_, base, acks, err := wire.SnapshotBase(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range protocol.MaskBits {
			if h.c.st.views.Get(base-1-uint32(i)) == nil {
				return withAcks(t, b, acks|1<<i)
			}
		}
		t.Fatal("the client holds every view a mask can name")
		return nil
	}
	asked, refused := h.tamperedRun(2*repairAfter, 4, never)
	if got := h.c.Stats.Rejected[protocol.RejectTick] - before; refused == 0 || got != uint64(refused) {
		t.Fatalf("%d snapshots refused, %d counted as a tick not held", refused, got)
	}
	if asked > repairAfter+8 {
		t.Fatalf("the client asked for a transfer after %d ticks of snapshots it could not take, want %d at most", asked, repairAfter+8)
	}
	h.run(300, 4)
	if h.c.Stats.Transfers == xfers {
		t.Error("no transfer taken")
	}
	h.run(20, 0)
	if h.c.World().Hash() != h.s.World().Hash() || h.c.Tick() != h.s.Tick() {
		t.Error("the client is not back in step with the server")
	}
}

// TestViewsDisagreeingAsksRepair: when the client's views are not the
// server's (here, its cube in the views it may be sent deltas against moved
// by a metre), what it decodes against them is not the server's state.
// While its prediction is right it needs none of it; at the first
// misprediction (a server event, its relay lost) it does not take that
// state as the server's for long: it asks for the whole state.
func TestViewsDisagreeingAsksRepair(t *testing.T) {
	h := newHarness(t, "arena", game.Options{}, StateSync, 0)
	h.noRelays = true
	h.run(40, 4)
	v := h.c.st.views.Newest()
	for tk := v.Tick() - 10; tk != v.Tick()+1; tk++ {
		if x := h.c.st.views.Get(tk); x != nil {
			x.Body(h.c.body).Pos.X++
		}
	}
	h.s.Nudge(0, physics.Vec3{Y: 5})
	asked, _ := h.tamperedRun(2*repairAfter, 4, func(b []byte) []byte { return b })
	if asked > repairAfter+8 {
		t.Fatalf("the client asked for a transfer after %d ticks against views not the server's, want %d at most", asked, repairAfter+8)
	}
	t.Logf("asked after %d ticks", asked)
}
