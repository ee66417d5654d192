package wire

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cubelab/cube/physics"
)

// Transfer limits.
const (
	fragmentHead = 2 + 4 + 2 + 2 + 4
	// FragmentBytes is the payload of every fragment but the last.
	FragmentBytes = MaxMessage - fragmentHead
	// MaxFragments bounds a transfer (about 9.7 MB), so that a Have
	// message's bitmap fits in one datagram.
	MaxFragments = 8192
	haveHead     = 2 + 4 + 2
)

// Fragment is one piece of a transfer: the server's whole state at Tick, in
// Count pieces.
type Fragment struct {
	Tick         uint32
	Index, Count uint16
	Size         uint32 // bytes of the whole transfer
	Data         []byte // the piece; aliases the message
}

// TransferState is what a transfer carries: the server's whole world at a
// tick and what the client needs beside it to classify what follows.
type TransferState struct {
	Chain    uint64 // the client's own chain
	AllChain uint64 // every player's
	Events   uint32
	Skipped  uint32
	State    physics.State
}

// The first byte of a transfer's bytes: what follows.
const (
	transferWhole byte = 0 // the whole state
	transferPatch byte = 1 // buckets of it (AppendPatch)
	transferHead       = 8 + 8 + 4 + 4
)

// AppendTransfer appends the bytes of a whole transfer (to be cut into
// fragments with AppendFragment).
func AppendTransfer(b []byte, t *TransferState) []byte {
	b = append(b, transferWhole)
	b = appendTransferHead(b, t)
	return physics.AppendState(b, &t.State)
}

// appendTransferHead appends what a transfer carries besides the state.
func appendTransferHead(b []byte, t *TransferState) []byte {
	b = binary.LittleEndian.AppendUint64(b, t.Chain)
	b = binary.LittleEndian.AppendUint64(b, t.AllChain)
	b = binary.LittleEndian.AppendUint32(b, t.Events)
	return binary.LittleEndian.AppendUint32(b, t.Skipped)
}

// readTransferHead reads what appendTransferHead wrote; b holds
// transferHead bytes at least.
func readTransferHead(b []byte, t *TransferState) {
	t.Chain = binary.LittleEndian.Uint64(b)
	t.AllChain = binary.LittleEndian.Uint64(b[8:])
	t.Events = binary.LittleEndian.Uint32(b[16:])
	t.Skipped = binary.LittleEndian.Uint32(b[20:])
}

// DecodeTransfer parses the bytes of a whole transfer into t, reusing its
// state's buffers and refusing more than maxBodies bodies or maxContacts
// contacts. Bytes cut short give ErrShort, others ErrInvalid; after an
// error t's state may hold part of the transfer.
func DecodeTransfer(b []byte, t *TransferState, maxBodies, maxContacts int) error {
	const head = 1 + transferHead
	if len(b) < head {
		return ErrShort
	}
	if b[0] != transferWhole {
		return invalid("transfer kind %d is not a whole state", b[0])
	}
	n, err := physics.DecodeState(b[head:], &t.State, maxBodies, maxContacts)
	switch {
	case errors.Is(err, physics.ErrShort):
		return fmt.Errorf("%w: transfer: %v", ErrShort, err)
	case err != nil:
		return invalid("transfer: %v", err)
	}
	if head+n != len(b) {
		return invalid("transfer: %d bytes after the state", len(b)-head-n)
	}
	readTransferHead(b[1:], t)
	return nil
}

// FragmentCount returns how many fragments carry size bytes.
func FragmentCount(size int) int { return (size + FragmentBytes - 1) / FragmentBytes }

// AppendFragment appends fragment index of transfer data, labelled tick.
// data must need at most MaxFragments fragments.
func AppendFragment(b []byte, tick uint32, data []byte, index int) []byte {
	count := FragmentCount(len(data))
	lo := index * FragmentBytes
	hi := min(lo+FragmentBytes, len(data))
	b = append(b, KindFragment, Version)
	b = binary.LittleEndian.AppendUint32(b, tick)
	b = binary.LittleEndian.AppendUint16(b, uint16(index))
	b = binary.LittleEndian.AppendUint16(b, uint16(count))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data[lo:hi]...)
}

// DecodeFragment parses a Fragment message; m.Data aliases b.
func DecodeFragment(b []byte, m *Fragment) error {
	r := start(b, KindFragment)
	tick, index, count, size := r.u32(), r.u16(), r.u16(), r.u32()
	if r.err == nil && (count < 1 || count > MaxFragments || index >= count ||
		FragmentCount(int(size)) != int(count)) {
		r.fail(invalid("fragment %d of %d of a transfer of %d bytes", index, count, size))
	}
	want := FragmentBytes
	if int(index) == int(count)-1 {
		want = int(size) - (int(count)-1)*FragmentBytes
	}
	data := r.bytes(want)
	if err := r.end(); err != nil {
		return err
	}
	*m = Fragment{Tick: tick, Index: index, Count: count, Size: size, Data: data}
	return nil
}

// Have tells the server which fragments of the transfer of Tick arrived.
type Have struct {
	Tick  uint32
	Count uint16
	Got   []byte // bitmap: bit i%8 of byte i/8 is fragment i
}

// AppendHave appends a Have message; m.Got holds (Count+7)/8 bytes.
func AppendHave(b []byte, m *Have) []byte {
	b = append(b, KindHave, Version)
	b = binary.LittleEndian.AppendUint32(b, m.Tick)
	b = binary.LittleEndian.AppendUint16(b, m.Count)
	return append(b, m.Got[:(int(m.Count)+7)/8]...)
}

// DecodeHave parses a Have message; m.Got aliases b.
func DecodeHave(b []byte, m *Have) error {
	r := start(b, KindHave)
	tick, count := r.u32(), r.u16()
	if r.err == nil && (count < 1 || count > MaxFragments) {
		r.fail(invalid("%d fragments", count))
	}
	got := r.bytes((int(count) + 7) / 8)
	if r.err == nil && count%8 != 0 && got[len(got)-1]>>(count%8) != 0 {
		r.fail(invalid("bits past the last fragment"))
	}
	if err := r.end(); err != nil {
		return err
	}
	*m = Have{Tick: tick, Count: count, Got: got}
	return nil
}
