package wire

import (
	"encoding/binary"

	"github.com/cubelab/cube/physics"
)

// Snapshot flags.
const (
	Complete         = 1 << 0 // every body that differs from the baseline view is in the snapshot
	Quantized        = 1 << 1 // bodies are coded on the game.Quantize grid
	HasContacts      = 1 << 2 // contact cache entries follow the bodies
	ContactsComplete = 1 << 3 // they are every entry of every island of the bodies sent
	SameChains       = 1 << 4 // AllChain equals Chain (one player) and is not sent
	HasAcks          = 1 << 5 // a mask of the views besides Base's the baseline takes follows (Acks is not 0)
	snapshotFlags    = Complete | Quantized | HasContacts | ContactsComplete | SameChains | HasAcks
)

// BodyUpdate is one body of a snapshot: its index and its state.
type BodyUpdate struct {
	Index int32
	State physics.BodyState
}

// Snapshot is a state-sync message: the server's world at Tick, as a delta
// against the view at Base with the bodies of the views Acks names
// (protocol.Views.Baseline).
type Snapshot struct {
	Tick, Base uint32
	Acks       uint64 // the views besides Base's the baseline takes the bodies of (bit i: tick Base-1-i)
	Flags      uint8
	Hash       uint64
	Chain      uint64 // digest of the inputs applied for this client's cube (FoldInput)
	AllChain   uint64 // digest of every player's inputs (FoldAll)
	Events     uint32
	Skipped    uint32
	Heard      uint32 // Tick plus the client's input buffer when its newest message arrived
	HeardInput uint32 // the tick of the newest input in that message
	Bodies     []BodyUpdate
	Contacts   []physics.ContactState
}

// SnapshotWriter appends a snapshot body by body, so that the server can
// stop when its byte budget is spent. Begin, then Body for each body in
// increasing index order, then optionally Contact for each contact entry in
// key order, then Finish.
type SnapshotWriter struct {
	b         []byte
	start     int // offset of the message in b
	flagsAt   int
	bodiesAt  int
	nbodies   int
	contactAt int
	ncontacts int
	last      int32
	quantized bool
}

// Begin starts a snapshot with the header fields of h (its Bodies and
// Contacts are ignored), appending to b.
func (w *SnapshotWriter) Begin(b []byte, h *Snapshot) {
	*w = SnapshotWriter{b: b, start: len(b), last: -1, quantized: h.Flags&Quantized != 0, contactAt: -1}
	b = append(b, KindSnapshot, Version)
	b = binary.LittleEndian.AppendUint32(b, h.Tick)
	b = binary.AppendUvarint(b, uint64(h.Tick-h.Base))
	w.flagsAt = len(b)
	flags := h.Flags & Quantized
	if h.AllChain == h.Chain {
		flags |= SameChains
	}
	b = append(b, flags)
	if h.Acks != 0 {
		b[w.flagsAt] |= HasAcks
		b = appendMask(b, h.Acks)
	}
	b = binary.LittleEndian.AppendUint64(b, h.Hash)
	b = binary.LittleEndian.AppendUint64(b, h.Chain)
	if flags&SameChains == 0 {
		b = binary.LittleEndian.AppendUint64(b, h.AllChain)
	}
	b = binary.AppendUvarint(b, uint64(h.Events))
	b = binary.AppendUvarint(b, uint64(h.Skipped))
	b = appendZigzag(b, int32(h.Heard-h.Tick))
	b = appendZigzag(b, int32(h.HeardInput-h.Tick))
	w.bodiesAt = len(b)
	w.b = append(b, 0, 0)
}

// Len returns the size of the message so far.
func (w *SnapshotWriter) Len() int { return len(w.b) - w.start }

// Body appends body i (greater than the last one added) as cur against
// base, unless the message would pass limit bytes (at most MaxMessage).
// It reports whether it did; a body off the grid of a quantised snapshot
// is refused too (ok false, grid false).
func (w *SnapshotWriter) Body(i int32, cur, base *physics.BodyState, limit int) (ok, grid bool) {
	if i <= w.last || w.contactAt >= 0 || w.nbodies == 1<<16-1 {
		return false, true
	}
	n := len(w.b)
	b := binary.AppendUvarint(w.b, uint64(i-w.last-1))
	b, grid = appendBody(b, cur, base, w.quantized)
	if !grid || len(b)-w.start > min(limit, MaxMessage) {
		w.b = b[:n]
		return false, grid
	}
	w.b, w.last = b, i
	w.nbodies++
	return true, true
}

// Contact appends a contact cache entry, unless the message would pass
// limit bytes (the first one counts the two bytes of the contact count).
// Entries must come in key order.
func (w *SnapshotWriter) Contact(c *physics.ContactState, limit int) bool {
	if w.ncontacts == 1<<16-1 {
		return false
	}
	n := len(w.b)
	b := w.b
	if w.contactAt < 0 {
		b = append(b, 0, 0) // the count, taken back with the first contact if it does not fit
	}
	words := physics.ContactWords(c)
	b = binary.AppendUvarint(b, uint64(uint32(c.A)))
	b = binary.AppendUvarint(b, uint64(uint32(c.B+1)))
	b = binary.AppendUvarint(b, uint64(c.Feature))
	for _, x := range words[3:] {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	if len(b)-w.start > min(limit, MaxMessage) {
		w.b = b[:n]
		return false
	}
	if w.contactAt < 0 {
		w.contactAt = n
	}
	w.b = b
	w.ncontacts++
	return true
}

// Finish sets the flags (Complete, ContactsComplete as given; HasContacts
// if Contact added a contact) and the counts, and returns the whole slice.
func (w *SnapshotWriter) Finish(complete, contactsComplete bool) []byte {
	f := w.b[w.flagsAt]
	if complete {
		f |= Complete
	}
	if w.contactAt >= 0 {
		f |= HasContacts
		if contactsComplete {
			f |= ContactsComplete
		}
		binary.LittleEndian.PutUint16(w.b[w.contactAt:], uint16(w.ncontacts))
	}
	w.b[w.flagsAt] = f
	binary.LittleEndian.PutUint16(w.b[w.bodiesAt:], uint16(w.nbodies))
	return w.b
}

// SnapshotBase returns the tick, the baseline tick and the ack mask of
// snapshot b, so that the client can make the reference to decode it
// against.
func SnapshotBase(b []byte) (tick, base uint32, acks uint64, err error) {
	r := start(b, KindSnapshot)
	tick = r.u32()
	base = tick - r.uvarint()
	if r.u8()&HasAcks != 0 {
		acks = r.mask()
	}
	return tick, base, acks, r.err
}

// SnapshotHead returns the tick of snapshot b and what it says of the
// client's input buffer (Heard, HeardInput), without its bodies: all a
// client that keeps no world needs (predict.Bot). The bodies are not
// checked.
func SnapshotHead(b []byte) (tick, heard, heardInput uint32, err error) {
	r := start(b, KindSnapshot)
	tick = r.u32()
	r.uvarint() // the baseline
	flags := r.u8()
	if flags&HasAcks != 0 {
		r.mask()
	}
	r.u64() // the hash
	r.u64() // the client's chain
	if flags&SameChains == 0 {
		r.u64() // every player's
	}
	r.uvarint() // events
	r.uvarint() // skipped
	heard = tick + uint32(r.zigzag())
	heardInput = tick + uint32(r.zigzag())
	return tick, heard, heardInput, r.err
}

// DecodeSnapshot parses snapshot b into m, reusing its slices. base is the
// baseline view, one state per body of the world (statics included, never
// sent): a body index must be below len(base).
func DecodeSnapshot(b []byte, m *Snapshot, base []physics.BodyState) error {
	r := start(b, KindSnapshot)
	tick := r.u32()
	baseTick := tick - r.uvarint()
	flags := r.u8()
	var acks uint64
	if flags&HasAcks != 0 {
		acks = r.mask()
	}
	hash, chain := r.u64(), r.u64()
	all := chain
	if flags&SameChains == 0 {
		if all = r.u64(); r.err == nil && all == chain {
			r.fail(invalid("an all-players chain equal to the client's, sent")) // one encoding only
		}
	}
	events, skipped := r.uvarint(), r.uvarint()
	heard := tick + uint32(r.zigzag())
	heardInput := tick + uint32(r.zigzag())
	if r.err == nil && flags&^snapshotFlags != 0 {
		r.fail(invalid("unknown snapshot flags %#x", flags))
	}
	if r.err == nil && flags&HasContacts == 0 && flags&ContactsComplete != 0 {
		r.fail(invalid("complete contacts without contacts"))
	}
	nb := int(r.u16())
	if r.err == nil && nb > len(base) {
		r.fail(invalid("%d bodies, the world has %d", nb, len(base)))
	}
	bodies := m.Bodies[:0]
	if r.err == nil && cap(bodies) < nb {
		bodies = make([]BodyUpdate, 0, len(base))
	}
	last := int64(-1)
	for k := 0; k < nb && r.err == nil; k++ {
		i := last + 1 + int64(r.uvarint())
		if i >= int64(len(base)) {
			r.fail(invalid("body %d, the world has %d", i, len(base)))
			break
		}
		bodies = append(bodies, BodyUpdate{Index: int32(i)})
		r.body(&bodies[len(bodies)-1].State, &base[i], flags&Quantized != 0)
		last = i
	}
	contacts := m.Contacts[:0]
	if flags&HasContacts != 0 {
		nc := int(r.u16())
		const minContact = 3 + 8*(physics.ContactWordCount-3)
		if r.err == nil && nc == 0 {
			r.fail(invalid("a contact section without contacts")) // the flag alone says none
		}
		if r.err == nil && nc > (len(b)-r.off)/minContact {
			r.fail(ErrShort)
		}
		if r.err == nil && cap(contacts) < nc {
			contacts = make([]physics.ContactState, 0, nc)
		}
		for k := 0; k < nc && r.err == nil; k++ {
			var words [physics.ContactWordCount]uint64
			words[0] = uint64(r.uvarint())
			words[1] = uint64(r.uvarint() - 1)
			words[2] = uint64(r.uvarint())
			for j := 3; j < len(words); j++ {
				words[j] = r.u64()
			}
			contacts = append(contacts, physics.ContactFromWords(&words))
		}
	}
	if err := r.end(); err != nil {
		return err
	}
	*m = Snapshot{Tick: tick, Base: baseTick, Acks: acks, Flags: flags &^ (SameChains | HasAcks), Hash: hash, Chain: chain, AllChain: all, Events: events, Skipped: skipped,
		Heard: heard, HeardInput: heardInput, Bodies: bodies, Contacts: contacts}
	return nil
}
