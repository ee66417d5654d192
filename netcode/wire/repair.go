package wire

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cubelab/cube/physics"
)

// Repair limits.
const (
	// MaxBuckets bounds the buckets of a repair, so that their hashes fit
	// one RepairHashes message.
	MaxBuckets = 128
	// MinBucketBodies is the fewest bodies a bucket holds: a repair of a
	// small world has one bucket a MinBucketBodies bodies.
	MinBucketBodies  = 8
	repairHashesHead = 2 + 4 + 2 + 4 + 8 + 2
	repairWantHead   = 2 + 4 + 1 + 2
)

// BucketBodies returns the bodies a bucket holds for a world of n bodies:
// MinBucketBodies, or more when that would make more than MaxBuckets.
func BucketBodies(n int) int {
	return max(MinBucketBodies, (n+MaxBuckets-1)/MaxBuckets)
}

// Buckets returns how many buckets of size bodies a world of n bodies has.
func Buckets(n, size int) int { return (n + size - 1) / size }

// bucketContacts returns the contacts of bucket k of st (bodies
// [k*size, (k+1)*size)): those whose first body A is in it, a run of the
// contacts (they are ordered by A; A is always a body, the ground being a
// contact's B, -1). Bucket 0's run starts at the first contact.
func bucketContacts(st *physics.State, size, k int) (lo, hi int) {
	first := func(a int) int { // the first contact whose A is a or more
		i, j := 0, len(st.Contacts)
		for i < j {
			h := int(uint(i+j) >> 1)
			if int(st.Contacts[h].A) < a {
				i = h + 1
			} else {
				j = h
			}
		}
		return i
	}
	if k > 0 {
		lo = first(k * size)
	}
	if k+1 < Buckets(len(st.Bodies), size) {
		hi = first((k + 1) * size)
	} else {
		hi = len(st.Contacts)
	}
	return lo, hi
}

// BucketHashes appends to dst the hash of each bucket of st: FNV-1a 64
// over words, as physics.State.Hash does, of the bucket's body count, its
// bodies' words (physics.BodyWords), its contact count and its contacts'
// words (physics.ContactWords), in the state's order.
func BucketHashes(dst []uint64, st *physics.State, size int) []uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	n := Buckets(len(st.Bodies), size)
	for k := range n {
		h := uint64(offset)
		lo, hi := k*size, min((k+1)*size, len(st.Bodies))
		h = (h ^ uint64(hi-lo)) * prime
		for i := lo; i < hi; i++ {
			for _, w := range physics.BodyWords(&st.Bodies[i]) {
				h = (h ^ w) * prime
			}
		}
		clo, chi := bucketContacts(st, size, k)
		h = (h ^ uint64(chi-clo)) * prime
		for i := clo; i < chi; i++ {
			for _, w := range physics.ContactWords(&st.Contacts[i]) {
				h = (h ^ w) * prime
			}
		}
		dst = append(dst, h)
	}
	return dst
}

// RepairHashes opens a repair: the server's state at Tick, as a hash per
// bucket of Size bodies (BucketBodies of its body count, the only size
// taken) and the whole state's hash.
type RepairHashes struct {
	Tick   uint32
	Size   uint16 // bodies a bucket
	Bodies uint32 // bodies of the state
	Whole  uint64 // physics.State.Hash of the whole state
	Hashes []uint64
}

// AppendRepairHashes appends a RepairHashes message; m.Hashes holds
// Buckets(Bodies, Size) hashes, at most MaxBuckets.
func AppendRepairHashes(b []byte, m *RepairHashes) []byte {
	b = append(b, KindRepairHashes, Version)
	b = binary.LittleEndian.AppendUint32(b, m.Tick)
	b = binary.LittleEndian.AppendUint16(b, m.Size)
	b = binary.LittleEndian.AppendUint32(b, m.Bodies)
	b = binary.LittleEndian.AppendUint64(b, m.Whole)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(m.Hashes)))
	for _, h := range m.Hashes {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	return b
}

// DecodeRepairHashes parses a RepairHashes message into m, reusing
// m.Hashes.
func DecodeRepairHashes(b []byte, m *RepairHashes) error {
	r := start(b, KindRepairHashes)
	tick, size, bodies, whole, count := r.u32(), r.u16(), r.u32(), r.u64(), r.u16()
	if r.err == nil && (bodies < 1 || int(size) != BucketBodies(int(bodies)) || count > MaxBuckets ||
		Buckets(int(bodies), int(size)) != int(count)) {
		r.fail(invalid("repair of %d bodies in %d buckets of %d", bodies, count, size))
	}
	raw := r.bytes(8 * int(count))
	if err := r.end(); err != nil {
		return err
	}
	m.Tick, m.Size, m.Bodies, m.Whole = tick, size, bodies, whole
	m.Hashes = m.Hashes[:0]
	for i := range int(count) {
		m.Hashes = append(m.Hashes, binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return nil
}

// RepairWant answers a RepairHashes: the buckets of the client's own state
// at Tick that differ from the server's (bit k%8 of byte k/8: bucket k),
// or All when the client cannot rebuild its state at Tick.
type RepairWant struct {
	Tick  uint32
	All   bool
	Count uint16 // buckets
	Mask  []byte // (Count+7)/8 bytes; empty with All
}

// AppendRepairWant appends a RepairWant message.
func AppendRepairWant(b []byte, m *RepairWant) []byte {
	b = append(b, KindRepairWant, Version)
	b = binary.LittleEndian.AppendUint32(b, m.Tick)
	if m.All {
		b = append(b, 1)
		return binary.LittleEndian.AppendUint16(b, 0)
	}
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint16(b, m.Count)
	return append(b, m.Mask[:(int(m.Count)+7)/8]...)
}

// DecodeRepairWant parses a RepairWant message; m.Mask aliases b.
func DecodeRepairWant(b []byte, m *RepairWant) error {
	r := start(b, KindRepairWant)
	tick, all, count := r.u32(), r.u8(), r.u16()
	switch {
	case r.err != nil:
	case all > 1:
		r.fail(invalid("repair answer flag %d", all))
	case all == 1 && count != 0:
		r.fail(invalid("repair answer of all with %d buckets", count))
	case all == 0 && (count < 1 || count > MaxBuckets):
		r.fail(invalid("repair answer of %d buckets", count))
	}
	mask := r.bytes((int(count) + 7) / 8)
	if r.err == nil && count%8 != 0 && mask[len(mask)-1]>>(count%8) != 0 {
		r.fail(invalid("bits past the last bucket"))
	}
	if err := r.end(); err != nil {
		return err
	}
	*m = RepairWant{Tick: tick, All: all == 1, Count: count, Mask: mask}
	return nil
}

// AppendPatch appends the bytes of a patch transfer (to be cut into
// fragments like a whole one): the header of t, then st's tick, body
// count and bucket size, the buckets named by mask, and for each of them
// its bodies and contacts as a physics state (physics.AppendState). t's
// State is not read.
func AppendPatch(b []byte, t *TransferState, st *physics.State, size int, mask []byte) []byte {
	b = append(b, transferPatch)
	b = appendTransferHead(b, t)
	n := Buckets(len(st.Bodies), size)
	b = binary.LittleEndian.AppendUint32(b, st.Tick)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(st.Bodies)))
	b = binary.LittleEndian.AppendUint16(b, uint16(size))
	b = append(b, mask[:(n+7)/8]...)
	var sub physics.State
	for k := range n {
		if mask[k/8]&(1<<(k%8)) == 0 {
			continue
		}
		clo, chi := bucketContacts(st, size, k)
		sub = physics.State{Tick: st.Tick, Bodies: st.Bodies[k*size : min((k+1)*size, len(st.Bodies))], Contacts: st.Contacts[clo:chi]}
		b = physics.AppendState(b, &sub)
	}
	return b
}

// IsPatch reports whether the bytes of a transfer are a patch (AppendPatch)
// rather than a whole state.
func IsPatch(b []byte) bool { return len(b) > 0 && b[0] == transferPatch }

// PatchScratch is what DecodePatch reuses from call to call.
type PatchScratch struct {
	sub physics.State
}

// DecodePatch parses the bytes of a patch into t: its header, and as its
// state the client's own state mine with the patched buckets replaced by
// the server's. It refuses a patch whose tick, body count or bucket size
// do not match mine's, a bucket that does not hold its bodies, or contacts
// outside their bucket; bytes cut short give ErrShort, others ErrInvalid.
// The caller checks the result's hash against the server's.
func DecodePatch(b []byte, t *TransferState, mine *physics.State, maxContacts int, scr *PatchScratch) error {
	const head = 1 + transferHead + 4 + 4 + 2
	if len(b) < head {
		return ErrShort
	}
	if b[0] != transferPatch {
		return invalid("transfer kind %d is not a patch", b[0])
	}
	readTransferHead(b[1:], t)
	p := b[1+transferHead:]
	tick, bodies, size := binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:]), int(binary.LittleEndian.Uint16(p[8:]))
	if tick != mine.Tick || int(bodies) != len(mine.Bodies) || size != BucketBodies(int(bodies)) {
		return invalid("patch of tick %d, %d bodies in buckets of %d, for a state of tick %d, %d bodies", tick, bodies, size, mine.Tick, len(mine.Bodies))
	}
	n := Buckets(int(bodies), size)
	off := head
	if len(b)-off < (n+7)/8 {
		return ErrShort
	}
	mask := b[off : off+(n+7)/8]
	off += (n + 7) / 8
	if n%8 != 0 && mask[len(mask)-1]>>(n%8) != 0 {
		return invalid("patch: bits past the last bucket")
	}
	st := &t.State
	st.Tick = tick
	st.Bodies, st.Contacts = st.Bodies[:0], st.Contacts[:0]
	for k := range n {
		lo, hi := k*size, min((k+1)*size, int(bodies))
		if mask[k/8]&(1<<(k%8)) == 0 {
			clo, chi := bucketContacts(mine, size, k)
			st.Bodies = append(st.Bodies, mine.Bodies[lo:hi]...)
			st.Contacts = append(st.Contacts, mine.Contacts[clo:chi]...)
			continue
		}
		used, err := physics.DecodeState(b[off:], &scr.sub, hi-lo, max(0, maxContacts-len(st.Contacts)))
		if err != nil {
			if errors.Is(err, physics.ErrShort) {
				return fmt.Errorf("%w: patch bucket %d: %v", ErrShort, k, err)
			}
			return invalid("patch bucket %d: %v", k, err)
		}
		off += used
		sub := &scr.sub
		if sub.Tick != tick || len(sub.Bodies) != hi-lo {
			return invalid("patch bucket %d holds %d bodies of tick %d, want %d of tick %d", k, len(sub.Bodies), sub.Tick, hi-lo, tick)
		}
		for i := range sub.Contacts {
			a := int(sub.Contacts[i].A)
			if a < lo || a >= hi || i > 0 && !contactBefore(&sub.Contacts[i-1], &sub.Contacts[i]) {
				return invalid("patch bucket %d: contact %d (%d-%d) out of place", k, i, sub.Contacts[i].A, sub.Contacts[i].B)
			}
		}
		st.Bodies = append(st.Bodies, sub.Bodies...)
		st.Contacts = append(st.Contacts, sub.Contacts...)
	}
	if off != len(b) {
		return invalid("patch: %d bytes after the last bucket", len(b)-off)
	}
	return nil
}

// contactBefore reports whether a comes strictly before b in the contact
// order: A, then B, then the feature.
func contactBefore(a, b *physics.ContactState) bool {
	if a.A != b.A {
		return a.A < b.A
	}
	if a.B != b.B {
		return a.B < b.B
	}
	return a.Feature < b.Feature
}
