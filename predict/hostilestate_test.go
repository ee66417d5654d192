package predict

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netcode/protocol"
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/netcode/wire"
	"github.com/cubelab/cube/physics"
)

// snapshotHead is a snapshot's header as the wire lays it out, and the
// bytes after it (the bodies and contacts, deltas against the baseline the
// header names), so that a test can change a field and keep the rest.
type snapshotHead struct {
	tick, delta         uint32
	flags               byte
	acks                uint64
	hash, chain, all    uint64
	events, skipped     uint64
	heard, heardInput   int32
	rest                []byte
	hasAcks, sameChains bool
}

// parseSnapshotHead reads the header of snapshot b; it follows
// wire.SnapshotHead.
func parseSnapshotHead(t *testing.T, b []byte) snapshotHead {
	t.Helper()
	var h snapshotHead
	p := 2
	uv := func() uint64 {
		v, n := binary.Uvarint(b[p:])
		if n <= 0 {
			t.Fatalf("a snapshot with a bad varint at %d", p)
		}
		p += n
		return v
	}
	zz := func() int32 { u := uv(); return int32(u>>1) ^ -int32(u&1) }
	h.tick = binary.LittleEndian.Uint32(b[p:])
	p += 4
	h.delta = uint32(uv())
	h.flags = b[p]
	p++
	if h.hasAcks = h.flags&wire.HasAcks != 0; h.hasAcks {
		n := int(b[p])
		for k := range n {
			h.acks |= uint64(b[p+1+k]) << (8 * k)
		}
		p += 1 + n
	}
	h.hash = binary.LittleEndian.Uint64(b[p:])
	h.chain = binary.LittleEndian.Uint64(b[p+8:])
	p += 16
	if h.sameChains = h.flags&wire.SameChains != 0; !h.sameChains {
		h.all = binary.LittleEndian.Uint64(b[p:])
		p += 8
	}
	h.events, h.skipped = uv(), uv()
	h.heard, h.heardInput = zz(), zz()
	h.rest = b[p:]
	return h
}

// append writes the header back, with whatever a test changed, and the
// bytes after it.
func (h *snapshotHead) append(b []byte) []byte {
	b = append(b, wire.KindSnapshot, wire.Version)
	b = binary.LittleEndian.AppendUint32(b, h.tick)
	b = binary.AppendUvarint(b, uint64(h.delta))
	flags := h.flags &^ wire.HasAcks
	if h.acks != 0 {
		flags |= wire.HasAcks
	}
	b = append(b, flags)
	if h.acks != 0 {
		n := 0
		for x := h.acks; x != 0; x >>= 8 {
			n++
		}
		b = append(b, byte(n))
		for k := range n {
			b = append(b, byte(h.acks>>(8*k)))
		}
	}
	b = binary.LittleEndian.AppendUint64(b, h.hash)
	b = binary.LittleEndian.AppendUint64(b, h.chain)
	if flags&wire.SameChains == 0 {
		b = binary.LittleEndian.AppendUint64(b, h.all)
	}
	b = binary.AppendUvarint(b, h.events)
	b = binary.AppendUvarint(b, h.skipped)
	zz := func(v int32) uint64 { return uint64(uint32(v<<1) ^ uint32(v>>31)) }
	b = binary.AppendUvarint(b, zz(h.heard))
	b = binary.AppendUvarint(b, zz(h.heardInput))
	return append(b, h.rest...)
}

// hostileSnapshots are what a hostile server makes of a real snapshot:
// one header field at a bound the wire allows, the bodies kept.
var hostileSnapshots = []struct {
	name string
	make func(h *snapshotHead)
}{
	{"tick 2^20 ahead", func(h *snapshotHead) { h.tick += 1 << 20 }},
	{"tick 2^20 behind", func(h *snapshotHead) { h.tick -= 1 << 20 }},
	{"tick 2^31 ahead", func(h *snapshotHead) { h.tick += 1 << 31 }},
	{"baseline 2^32-1 back", func(h *snapshotHead) { h.delta = 1<<32 - 1 }},
	{"baseline one tick on", func(h *snapshotHead) { h.delta-- }},
	{"every view acked", func(h *snapshotHead) { h.acks = 1<<64 - 1 }},
	{"heard 2^30 ahead", func(h *snapshotHead) { h.heard = 1 << 30 }},
	{"heard 2^30 behind", func(h *snapshotHead) { h.heard = -1 << 30 }},
	{"heard input at the bounds", func(h *snapshotHead) { h.heardInput = -1 << 31 }},
	{"wrong hash", func(h *snapshotHead) { h.hash ^= 0x5a5a5a5a5a5a5a5a }},
	{"wrong chain", func(h *snapshotHead) { h.chain ^= 1 }},
	{"events and skipped at 2^32-1", func(h *snapshotHead) { h.events, h.skipped = 1<<32-1, 1<<32-1 }},
	{"an unknown flag", func(h *snapshotHead) { h.flags |= 1 << 7 }},
	{"contacts complete without contacts", func(h *snapshotHead) {
		if h.flags&wire.HasContacts == 0 {
			h.flags |= wire.ContactsComplete
		}
	}},
}

// hostileTurn checks what a client must keep whatever a server sends: its
// tick never goes back and jumps ahead at most maxJump at a turn, every
// refusal is an ErrRejected whose text holds no control byte, and its
// world stays valid and within the scene's bounds.
func hostileTurn(t *testing.T, c *Client, turn int, before uint32, errs []error) {
	t.Helper()
	if d := c.Tick() - before; tick.After(before, c.Tick()) || d > maxJump+1 {
		t.Fatalf("turn %d: the tick went from %d to %d", turn, before, c.Tick())
	}
	for _, err := range errs {
		if !errors.Is(err, protocol.ErrRejected) {
			t.Fatalf("turn %d: %v, not a refusal", turn, err)
		}
		for _, r := range err.Error() {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("turn %d: the refusal %q holds a control byte", turn, err)
			}
		}
	}
	if err := c.World().Check(c.World().State()); err != nil {
		t.Fatalf("turn %d: the client's world: %v", turn, err)
	}
	predictingFinite(t, c)
}

// TestAHostileSnapshotServer plays a state-sync client, its time sync on,
// against a server whose snapshots are, every few ticks, one of
// hostileSnapshots in place of the real one. Whatever arrives, the client
// keeps what hostileTurn checks, holds at most the ring in all, and once
// the hostile snapshots stop it is back in step with the server.
func TestAHostileSnapshotServer(t *testing.T) {
	for _, hs := range hostileSnapshots {
		t.Run(hs.name, func(t *testing.T) {
			h := newHarness(t, "arena", game.Options{}, StateSync, 1000)
			h.c.Sync.On = true
			changed, last := 0, uint32(0)
			// 200 turns with hostile snapshots, then real ones until the
			// client has predicted 200 ticks past the last hostile one
			// (a hold of the whole ring at most in between).
			for i := 0; i < 200 || tick.After(last+200, h.c.Tick()); i++ {
				if i > 200+maxJumpBack+400 {
					t.Fatalf("the client is still at tick %d, %d turns on", h.c.Tick(), i)
				}
				before := h.c.Tick()
				h.clientStep(script(h.c.Tick()))
				h.deliverUp()
				h.serverSend(true)
				var errs []error
				for _, b := range h.down {
					if k, _ := wire.Kind(b); k == wire.KindSnapshot && i < 200 && i%7 == 3 {
						sh := parseSnapshotHead(t, b)
						hs.make(&sh)
						if nb := sh.append(nil); string(nb) != string(b) {
							b = nb
							changed++
						}
					}
					if err := h.c.Receive(b); err != nil {
						errs = append(errs, err)
					}
				}
				h.down = h.down[:0]
				hostileTurn(t, h.c, i, before, errs)
				if i == 199 {
					last = h.c.Tick()
				}
			}
			if changed == 0 {
				t.Fatal("no snapshot was changed: the case tests nothing")
			}
			if h.c.Stats.HeldTicks > maxJumpBack+8 {
				t.Errorf("held %d ticks, more than the ring's %d", h.c.Stats.HeldTicks, maxJumpBack)
			}
			if cmp := h.c.Compared(); cmp.ClientHash != cmp.ServerHash || tick.After(h.s.Tick()-8, cmp.Tick) {
				t.Errorf("200 ticks after the last hostile snapshot: compared %+v, server at %d", cmp, h.s.Tick())
			}
			t.Logf("%d changed; refused %v, stale %d, held %d, transfers %d", changed, h.c.Stats.Rejected, h.c.Stats.StaleStates, h.c.Stats.HeldTicks, h.c.Stats.Transfers)
		})
	}
}

// TestSnapshotHeadRoundTrip: the test's header writer gives back the bytes
// of every real snapshot it reads, so that a hostile case changes only the
// field it names.
func TestSnapshotHeadRoundTrip(t *testing.T) {
	h := newHarness(t, "cubes", game.Options{}, StateSync, 0)
	seen := 0
	for i := 0; i < 60; i++ {
		h.clientStep(script(h.c.Tick()))
		h.deliverUp()
		h.serverSend(true)
		for _, b := range h.down {
			if k, _ := wire.Kind(b); k == wire.KindSnapshot {
				sh := parseSnapshotHead(t, b)
				if got := sh.append(nil); string(got) != string(b) {
					t.Fatalf("snapshot %d: rewritten as %x, was %x", seen, got[:min(len(got), 48)], b[:min(len(b), 48)])
				}
				seen++
			}
		}
		h.deliverDown()
	}
	if seen < 30 {
		t.Fatalf("%d snapshots seen", seen)
	}
}

// hostileRepairs are what a hostile server sends a client that asked for
// its state (c.view.askXfer): repair hashes and fragments with fields at
// the wire's bounds, transfers that do not decode, and a transfer whose
// state is beyond the scene's bounds. Each returns the messages to send
// in place of the real ones; c is the client, s its server's world.
var hostileRepairs = []struct {
	name string
	make func(h *harness) [][]byte
}{
	{"hashes of another body count", func(h *harness) [][]byte {
		n := h.c.World().NumBodies() + 8
		size := wire.BucketBodies(n)
		return [][]byte{wire.AppendRepairHashes(nil, &wire.RepairHashes{Tick: h.c.Tick() - 2, Size: uint16(size), Bodies: uint32(n), Hashes: make([]uint64, wire.Buckets(n, size))})}
	}},
	{"hashes 2^30 ahead", func(h *harness) [][]byte {
		n := h.c.World().NumBodies()
		size := wire.BucketBodies(n)
		return [][]byte{wire.AppendRepairHashes(nil, &wire.RepairHashes{Tick: h.c.Tick() + 1<<30, Size: uint16(size), Bodies: uint32(n), Hashes: make([]uint64, wire.Buckets(n, size))})}
	}},
	{"hashes 2^30 behind", func(h *harness) [][]byte {
		n := h.c.World().NumBodies()
		size := wire.BucketBodies(n)
		return [][]byte{wire.AppendRepairHashes(nil, &wire.RepairHashes{Tick: h.c.Tick() - 1<<30, Size: uint16(size), Bodies: uint32(n), Hashes: make([]uint64, wire.Buckets(n, size))})}
	}},
	{"the first fragment of the largest transfer, 2^30 ahead", func(h *harness) [][]byte {
		return [][]byte{largestFragment(h.c.Tick() + 1<<30)}
	}},
	{"the first fragment of the largest transfer, now", func(h *harness) [][]byte {
		return [][]byte{largestFragment(h.c.Tick())}
	}},
	{"a transfer that is not DEFLATE data", func(h *harness) [][]byte {
		return [][]byte{wire.AppendFragment(nil, h.s.Tick(), []byte("\x1b[2J not a transfer\x07"), 0)}
	}},
	{"a transfer of other bytes", func(h *harness) [][]byte {
		var z wire.Compressor
		return [][]byte{wire.AppendFragment(nil, h.s.Tick(), z.Compress(nil, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), 0)}
	}},
	{"a transfer beyond the bounds", func(h *harness) [][]byte {
		ts := wire.TransferState{}
		h.s.World().Save(&ts.State)
		ts.State.Bodies[h.c.Body()].Vel.Y = 1e300
		var z wire.Compressor
		data := z.Compress(nil, wire.AppendTransfer(nil, &ts))
		var out [][]byte
		for i := range wire.FragmentCount(len(data)) {
			out = append(out, wire.AppendFragment(nil, h.s.Tick(), data, i))
		}
		return out
	}},
	{"a transfer labelled with another tick", func(h *harness) [][]byte {
		ts := wire.TransferState{}
		h.s.World().Save(&ts.State)
		var z wire.Compressor
		data := z.Compress(nil, wire.AppendTransfer(nil, &ts))
		var out [][]byte
		for i := range wire.FragmentCount(len(data)) {
			out = append(out, wire.AppendFragment(nil, h.s.Tick()-3, data, i))
		}
		return out
	}},
}

// largestFragment is the first fragment of a transfer of MaxFragments
// pieces labelled tk: it makes a client that takes it hold the largest
// buffer a transfer may need.
func largestFragment(tk uint32) []byte {
	b := []byte{wire.KindFragment, wire.Version}
	b = binary.LittleEndian.AppendUint32(b, tk)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint16(b, wire.MaxFragments)
	b = binary.LittleEndian.AppendUint32(b, uint32(wire.MaxFragments*wire.FragmentBytes))
	return append(b, make([]byte, wire.FragmentBytes)...)
}

// TestAHostileRepairServer plays an input-sync client whose world has
// drifted from the server's, so that it asks for the server's state,
// against a server that answers, while it asks, with one of
// hostileRepairs in place of its real messages every few turns. Whatever
// arrives, the client keeps what hostileTurn checks, and once the hostile
// messages stop it takes the real repair and is back in step.
func TestAHostileRepairServer(t *testing.T) {
	for _, hr := range hostileRepairs {
		t.Run(hr.name, func(t *testing.T) {
			h := newHarness(t, "pyramid", game.Options{}, InputSync, 0)
			h.run(40, 0)
			var st physics.State
			h.c.world.Save(&st)
			st.Bodies[len(st.Bodies)/2].Vel.X += 1e-6
			h.c.world.Load(&st)
			sent, asked := 0, false
			for i := 0; i < 400 && (i < 120 || h.c.Stats.Transfers == 0 || h.c.view.askXfer); i++ {
				before := h.c.Tick()
				h.clientStep(script(h.c.Tick()))
				h.deliverUp()
				h.serverSend(true)
				var errs []error
				down := h.down
				if h.c.view.askXfer && i < 120 {
					asked = true
					if i%5 == 0 {
						down = append(hr.make(h), down...)
						sent++
					}
					// The real repair waits until the hostile turns are over.
					kept := down[:0]
					for _, b := range down {
						if k, _ := wire.Kind(b); (k == wire.KindFragment || k == wire.KindRepairHashes) && !hostileMessage(b, hr.make(h)) {
							continue
						}
						kept = append(kept, b)
					}
					down = kept
				}
				for _, b := range down {
					if err := h.c.Receive(b); err != nil {
						errs = append(errs, err)
					}
				}
				h.down = h.down[:0]
				hostileTurn(t, h.c, i, before, errs)
			}
			if !asked || sent == 0 {
				t.Fatalf("the client asked %v, %d hostile turns: the case tests nothing", asked, sent)
			}
			h.run(20, 0)
			if h.c.World().Hash() != h.s.World().Hash() || h.c.Tick() != h.s.Tick() {
				t.Errorf("not in step after the hostile repairs: client tick %d, server tick %d, transfers %d, asking %v", h.c.Tick(), h.s.Tick(), h.c.Stats.Transfers, h.c.view.askXfer)
			}
			t.Logf("%d hostile turns; refused %v, stale %d, held %d, transfers %d", sent, h.c.Stats.Rejected, h.c.Stats.StaleStates, h.c.Stats.HeldTicks, h.c.Stats.Transfers)
		})
	}
}

// hostileMessage reports whether b is one of the hostile messages.
func hostileMessage(b []byte, hostile [][]byte) bool {
	for _, m := range hostile {
		if string(m) == string(b) {
			return true
		}
	}
	return false
}
