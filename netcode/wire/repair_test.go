package wire

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// repairState is the cubes scene after a second of falling and settling:
// 900-odd bodies and their contacts.
var repairState = sync.OnceValue(func() *physics.State {
	w, _, err := game.Build("cubes", physics.DefaultConfig(), game.Options{})
	if err != nil {
		panic(err)
	}
	for range 64 {
		w.Step()
	}
	var st physics.State
	w.Save(&st)
	return &st
})

// differ returns the buckets whose hashes differ between a and b.
func differ(a, b []uint64) []int {
	var out []int
	for k := range a {
		if a[k] != b[k] {
			out = append(out, k)
		}
	}
	return out
}

// TestPatchOfOneBucket: a client state that differs from the server's in
// one body and one of its contacts differs in that bucket's hash only,
// and the patch of that bucket, applied to it, gives the server's state
// bit for bit, in a small part of the whole state's bytes.
func TestPatchOfOneBucket(t *testing.T) {
	server := repairState()
	if len(server.Contacts) == 0 {
		t.Fatal("the scene has no contacts after a second")
	}
	size := BucketBodies(len(server.Bodies))
	var mine physics.State
	mine.CopyFrom(server)
	c := len(mine.Contacts) / 2
	body := int(mine.Contacts[c].A)
	mine.Bodies[body].Vel.X += 1e-9
	mine.Contacts[c].Pn *= 1.5
	hs, hm := BucketHashes(nil, server, size), BucketHashes(nil, &mine, size)
	if got := differ(hs, hm); len(got) != 1 || got[0] != body/size {
		t.Fatalf("buckets differing: %v, want [%d] (body %d)", got, body/size, body)
	}
	mask := make([]byte, (len(hs)+7)/8)
	mask[body/size/8] |= 1 << (body / size % 8)
	head := TransferState{Chain: 1, AllChain: 2, Events: 3, Skipped: 4}
	patch := AppendPatch(nil, &head, server, size, mask)
	whole := AppendTransfer(nil, &TransferState{State: *server})
	if !IsPatch(patch) || IsPatch(whole) {
		t.Fatal("IsPatch mistakes a patch for a whole state or the reverse")
	}
	if len(patch)*10 > len(whole) {
		t.Errorf("the patch of one bucket takes %d bytes, the whole state %d", len(patch), len(whole))
	}
	var got TransferState
	var scr PatchScratch
	if err := DecodePatch(patch, &got, &mine, 1<<20, &scr); err != nil {
		t.Fatal(err)
	}
	if !got.State.Equal(server) || got.State.Hash() != server.Hash() {
		t.Fatal("the patched state is not the server's")
	}
	if got.Chain != 1 || got.AllChain != 2 || got.Events != 3 || got.Skipped != 4 {
		t.Errorf("the patch's header came back as %+v", got)
	}
	// Without the patch's bucket the state stays the client's.
	empty := AppendPatch(nil, &head, server, size, make([]byte, len(mask)))
	if err := DecodePatch(empty, &got, &mine, 1<<20, &scr); err != nil {
		t.Fatal(err)
	}
	if !got.State.Equal(&mine) {
		t.Error("an empty patch changed the state")
	}
}

// TestPatchRefusesWhatDoesNotFit: every proper prefix of a patch, a byte
// more, a patch of another tick or body count, and a bucket's contact
// moved into another bucket are refused with ErrShort or ErrInvalid.
func TestPatchRefusesWhatDoesNotFit(t *testing.T) {
	server := repairState()
	size := BucketBodies(len(server.Bodies))
	n := Buckets(len(server.Bodies), size)
	mask := make([]byte, (n+7)/8)
	mask[0], mask[(n-1)/8] = 1, mask[(n-1)/8]|1<<((n-1)%8) // the first and last buckets
	patch := AppendPatch(nil, &TransferState{}, server, size, mask)
	var got TransferState
	var scr PatchScratch
	for i := range len(patch) {
		if err := DecodePatch(patch[:i], &got, server, 1<<20, &scr); !errors.Is(err, ErrShort) && !errors.Is(err, ErrInvalid) {
			t.Fatalf("cut to %d of %d bytes: %v", i, len(patch), err)
		}
	}
	if err := DecodePatch(append(bytes.Clone(patch), 0), &got, server, 1<<20, &scr); !errors.Is(err, ErrInvalid) {
		t.Errorf("a byte more: %v", err)
	}
	var other physics.State
	other.CopyFrom(server)
	other.Tick++
	if err := DecodePatch(patch, &got, &other, 1<<20, &scr); !errors.Is(err, ErrInvalid) {
		t.Errorf("against a state of another tick: %v", err)
	}
	other.CopyFrom(server)
	other.Bodies = other.Bodies[:len(other.Bodies)-1]
	if err := DecodePatch(patch, &got, &other, 1<<20, &scr); !errors.Is(err, ErrInvalid) {
		t.Errorf("against a state of fewer bodies: %v", err)
	}
	// Bucket 0's first contact claims a body of bucket 1.
	moved := bytes.Clone(patch)
	bodiesOnly := physics.State{Bodies: server.Bodies[:size]}
	off := 1 + transferHead + 4 + 4 + 2 + len(mask) + bodiesOnly.EncodedSize()
	if c0 := server.Contacts[0]; c0.A >= int32(size) {
		t.Fatal("bucket 0 has no contact")
	}
	moved[off] = byte(size) // A, little endian
	if err := DecodePatch(moved, &got, server, 1<<20, &scr); !errors.Is(err, ErrInvalid) {
		t.Errorf("a contact out of its bucket: %v", err)
	}
	if err := DecodePatch(AppendTransfer(nil, &TransferState{State: *server}), &got, server, 1<<20, &scr); !errors.Is(err, ErrInvalid) {
		t.Errorf("a whole state given as a patch: %v", err)
	}
	if err := DecodeTransfer(patch, &got, len(server.Bodies), 1<<20); !errors.Is(err, ErrInvalid) {
		t.Errorf("a patch given as a whole state: %v", err)
	}
}

// TestBucketBodies: a world is cut into MaxBuckets buckets at most, of
// MinBucketBodies bodies at least.
func TestBucketBodies(t *testing.T) {
	for _, n := range []int{1, 31, 32, 33, 901, 4096, 4097, 65535} {
		size := BucketBodies(n)
		if b := Buckets(n, size); size < MinBucketBodies || b > MaxBuckets || b < 1 {
			t.Errorf("%d bodies: %d buckets of %d", n, b, size)
		}
	}
}

func FuzzDecodeRepair(f *testing.F) {
	seed(f, KindRepairHashes, KindRepairWant)
	f.Fuzz(func(t *testing.T, b []byte) {
		var h RepairHashes
		if err := DecodeRepairHashes(b, &h); err != nil {
			checkErr(t, err)
		} else if len(h.Hashes) < 1 || len(h.Hashes) > MaxBuckets || Buckets(int(h.Bodies), int(h.Size)) != len(h.Hashes) {
			t.Fatalf("decoded %d hashes of %d bodies in buckets of %d", len(h.Hashes), h.Bodies, h.Size)
		} else if enc := AppendRepairHashes(nil, &h); !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", h, enc, b)
		}
		var w RepairWant
		if err := DecodeRepairWant(b, &w); err != nil {
			checkErr(t, err)
		} else if !w.All && (w.Count < 1 || w.Count > MaxBuckets || len(w.Mask) != (int(w.Count)+7)/8 || bitsPast(w.Mask, int(w.Count))) {
			t.Fatalf("decoded %+v", w)
		} else if enc := AppendRepairWant(nil, &w); !bytes.Equal(enc, b) {
			t.Fatalf("decoded %+v, which encodes to\n%x\nnot\n%x", w, enc, b)
		}
	})
}

// FuzzDecodePatch decodes patches against a small state (three buckets
// of a scene of 20 bodies on a line): never a panic, a sentinel error
// or a state of the client's shape whose patched buckets re-encode to the
// same bytes.
func FuzzDecodePatch(f *testing.F) {
	mine := patchFuzzState()
	size := BucketBodies(len(mine.Bodies))
	for _, mask := range []byte{0, 1, 2, 5, 7} {
		p := AppendPatch(nil, &TransferState{Chain: 7}, mine, size, []byte{mask})
		f.Add(p)
		f.Add(p[:len(p)/2])
		flipped := bytes.Clone(p)
		flipped[len(flipped)-1] ^= 0x80
		f.Add(flipped)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got TransferState
		var scr PatchScratch
		if err := DecodePatch(b, &got, mine, 1<<12, &scr); err != nil {
			checkErr(t, err)
			return
		}
		if len(got.State.Bodies) != len(mine.Bodies) || got.State.Tick != mine.Tick {
			t.Fatalf("patched state of %d bodies, tick %d", len(got.State.Bodies), got.State.Tick)
		}
		if enc := AppendPatch(nil, &got, &got.State, size, b[1+transferHead+10:]); !bytes.Equal(enc, b) {
			t.Fatalf("a patch decoded to a state that encodes to\n%x\nnot\n%x", enc, b)
		}
	})
}

// patchFuzzState is the state the patch fuzzer decodes against: 20
// bodies (three buckets), with a contact in each bucket.
func patchFuzzState() *physics.State {
	st := &physics.State{Tick: 42, Bodies: make([]physics.BodyState, 20)}
	for i := range st.Bodies {
		st.Bodies[i].Rot.W = 1
		st.Bodies[i].Pos.X = float64(i)
	}
	for _, a := range []int32{3, 10, 19} {
		st.Contacts = append(st.Contacts, physics.ContactState{A: a, B: physics.Ground, Feature: 1, Pn: 0.5})
	}
	return st
}
