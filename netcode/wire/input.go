package wire

import (
	"encoding/binary"

	"github.com/cubelab/cube/game"
)

// Input message flags.
const (
	AckValid    = 1 << 0 // Ack names a server message the client has taken
	AckInSync   = 1 << 1 // the client's state at Ack is the server's, bit for bit
	AskTransfer = 1 << 2 // the client asks for a transfer of the whole state
	inputFlags  = AckValid | AckInSync | AskTransfer
	// hasHeld, on the wire only: a mask of the views held before Base
	// follows (AppendInput sets it when Held is not 0).
	hasHeld = 1 << 3
)

// inputHead bounds the size of an Input message before its runs.
const inputHead = 2 + 1 + 1 + 4 + 2 + 5 + 5 + 9

// Input is what a client sends every tick: its inputs since the oldest
// tick the server may lack, and what it has taken from the server.
type Input struct {
	Player uint8
	Flags  uint8
	Ack    uint32 // the newest server message taken (with AckValid), at or before First
	Base   uint32 // state sync: the newest kept snapshot view the client holds, at or before Ack
	Held   uint64 // state sync: views it holds before Base that could give the reference a body newer than Base's (bit i: tick Base-1-i); see doc.go
	First  uint32
	Inputs []game.Input // for ticks First, First+1, ...
}

// AppendInput appends an Input message to b. When the inputs do not all
// fit in MaxMessage bytes, the oldest are left out; it returns the tick of
// the first input sent (the newest MaxTicks at most, and fewer when they
// do not fit). m.Inputs must not be empty: DecodeInput refuses a message
// without inputs.
func AppendInput(b []byte, m *Input) ([]byte, uint32) {
	ins := m.Inputs
	if len(ins) > MaxTicks {
		ins = ins[len(ins)-MaxTicks:]
	}
	if n := fitRuns(ins, MaxMessage-inputHead); n < len(ins) {
		ins = ins[len(ins)-n:]
	}
	first := m.First + uint32(len(m.Inputs)-len(ins))
	flags := m.Flags & inputFlags
	if m.Held != 0 {
		flags |= hasHeld
	}
	b = append(b, KindInput, Version, m.Player, flags)
	b = binary.LittleEndian.AppendUint32(b, first)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(ins)))
	b = binary.AppendUvarint(b, uint64(first-m.Ack))
	b = binary.AppendUvarint(b, uint64(m.Ack-m.Base))
	if m.Held != 0 {
		b = appendMask(b, m.Held)
	}
	return appendRuns(b, ins), first
}

// DecodeInput parses an Input message into m, reusing m.Inputs.
func DecodeInput(b []byte, m *Input) error {
	r := start(b, KindInput)
	player, flags := r.u8(), r.u8()
	first := r.u32()
	count := int(r.u16())
	ack := first - r.uvarint()
	base := ack - r.uvarint()
	var held uint64
	if flags&hasHeld != 0 {
		held = r.mask()
	}
	if r.err == nil && (count < 1 || count > MaxTicks) {
		r.fail(invalid("%d inputs, want 1 to %d", count, MaxTicks))
	}
	if r.err == nil && flags&^(inputFlags|hasHeld) != 0 {
		r.fail(invalid("unknown flags %#x", flags))
	}
	ins := m.Inputs[:0]
	if r.err == nil && cap(ins) < count {
		ins = make([]game.Input, 0, MaxTicks)
	}
	ins = r.runs(ins, count)
	if err := r.end(); err != nil {
		return err
	}
	m.Player, m.Flags, m.Ack, m.Base, m.Held, m.First, m.Inputs = player, flags&^hasHeld, ack, base, held, first, ins
	return nil
}

// InputHead reads the header of an Input message without decoding its
// runs: the player and the number of inputs it says it carries. It checks
// the version, the kind and the size (at most MaxMessage), so that a
// receiver can refuse a message cheaply, before DecodeInput reads it
// whole; a message it takes may still fail to decode.
func InputHead(b []byte) (player uint8, count int, err error) {
	r := start(b, KindInput)
	player = r.u8()
	r.u8()
	r.u32()
	count = int(r.u16())
	if r.err != nil {
		return 0, 0, r.err
	}
	return player, count, nil
}
