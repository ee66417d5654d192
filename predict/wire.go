package predict

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Wire format. Every message starts with a kind byte and a version byte;
// integers are little endian.
//
// Input message (client to server), at most MaxInputMessage bytes:
//
//	kind=1 | version=1 | first tick uint32 | count uint16 (1..RingSize) | runs
//
// The inputs are for ticks first, first+1, ..., first+count-1, as runs of
// equal inputs. A run is one byte: the low six bits are the input (W A S D
// jump pull), the high two bits n give the run length n+1 for n < 3; n = 3 is
// followed by a uvarint e and the run length is 4+e. The run lengths add up
// to count exactly. A held key costs two or three bytes a message.
//
// State message (server to client):
//
//	kind=2 | version=1 | tick uint32 | hash uint64 | input chain uint64 |
//	events uint32 | skipped uint32 | state (physics.AppendState)
//
// tick labels the state after the server applied the input of tick-1; hash
// is the state's FNV-1a hash, checked on decoding; the input chain digests
// every input the server applied (see foldInput); events counts server-only
// events and skipped the ticks the server did not simulate, both since the
// session started.
const (
	MsgInput byte = 1
	MsgState byte = 2
	version  byte = 2

	// MaxInputMessage bounds an input message, to stay under a typical
	// path MTU.
	MaxInputMessage = 1200

	inputHeader = 2 + 4 + 2
	stateHeader = 2 + 4 + 8 + 8 + 4 + 4
	// maxBodies and maxContacts bound a decoded state.
	maxBodies   = 1024
	maxContacts = 16 * maxBodies
)

// Sentinel errors of the decoders.
var (
	ErrShort   = errors.New("predict: message cut short")
	ErrKind    = errors.New("predict: unknown message kind")
	ErrVersion = errors.New("predict: unsupported message version")
	ErrInvalid = errors.New("predict: invalid message")
)

// InputMsg is a run of consecutive inputs, the newest last.
type InputMsg struct {
	First  uint32
	Inputs []game.Input
}

// StateMsg is a snapshot of the server's world.
type StateMsg struct {
	Tick    uint32
	Hash    uint64
	Chain   uint64
	Events  uint32
	Skipped uint32
	State   physics.State
}

// MsgKind returns the kind byte of a message.
func MsgKind(b []byte) (byte, error) {
	if len(b) < 2 {
		return 0, ErrShort
	}
	if b[1] != version {
		return 0, fmt.Errorf("%w: %d", ErrVersion, b[1])
	}
	if b[0] != MsgInput && b[0] != MsgState {
		return 0, fmt.Errorf("%w: %d", ErrKind, b[0])
	}
	return b[0], nil
}

// runBytes returns the encoded size of a run of n equal inputs.
func runBytes(n int) int {
	if n < runExtended {
		return 1
	}
	return 1 + uvarintLen(uint64(n-runExtended))
}

// runExtended is the shortest run that needs a uvarint after its byte.
const runExtended = 4

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// fitInputs returns how many of the newest inputs fit in an input message of
// at most max bytes (and at most RingSize inputs).
func fitInputs(inputs []game.Input, max int) int {
	size, n := inputHeader, 0
	for end := len(inputs); end > 0 && n < RingSize; {
		start := end - 1
		for start > 0 && inputs[start-1] == inputs[end-1] {
			start--
		}
		run := end - start
		if n+run > RingSize {
			run = RingSize - n
		}
		if size+runBytes(run) > max {
			// Part of the run may still fit: a short run costs one byte.
			if size+1 <= max {
				n += min(run, runExtended-1)
			}
			return n
		}
		size += runBytes(run)
		n += run
		end -= run
	}
	return n
}

// AppendInput appends an input message for the ticks first.. to b. If the
// whole slice does not fit in MaxInputMessage bytes, the oldest inputs are
// left out; it returns the tick of the first input sent.
func AppendInput(b []byte, first uint32, inputs []game.Input) ([]byte, uint32) {
	n := fitInputs(inputs, MaxInputMessage)
	if n < len(inputs) {
		first += uint32(len(inputs) - n)
		inputs = inputs[len(inputs)-n:]
	}
	b = append(b, MsgInput, version)
	b = binary.LittleEndian.AppendUint32(b, first)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(inputs)))
	for i := 0; i < len(inputs); {
		j := i + 1
		for j < len(inputs) && inputs[j] == inputs[i] {
			j++
		}
		run := j - i
		in := byte(inputs[i] & game.InputMask)
		if run < runExtended {
			b = append(b, in|byte(run-1)<<game.InputBits)
		} else {
			b = append(b, in|(runExtended-1)<<game.InputBits)
			b = binary.AppendUvarint(b, uint64(run-runExtended))
		}
		i = j
	}
	return b, first
}

// DecodeInput parses an input message into m, reusing m.Inputs. It never
// holds more than RingSize inputs.
func DecodeInput(b []byte, m *InputMsg) error {
	if k, err := MsgKind(b); err != nil {
		return err
	} else if k != MsgInput {
		return fmt.Errorf("%w: kind %d is not an input message", ErrInvalid, k)
	}
	if len(b) > MaxInputMessage {
		return fmt.Errorf("%w: input message of %d bytes, at most %d", ErrInvalid, len(b), MaxInputMessage)
	}
	if len(b) < inputHeader {
		return ErrShort
	}
	first := binary.LittleEndian.Uint32(b[2:])
	count := int(binary.LittleEndian.Uint16(b[6:]))
	if count < 1 || count > RingSize {
		return fmt.Errorf("%w: %d inputs, want 1 to %d", ErrInvalid, count, RingSize)
	}
	in := m.Inputs[:0]
	if cap(in) < count {
		in = make([]game.Input, 0, RingSize)
	}
	off := inputHeader
	for len(in) < count {
		if off >= len(b) {
			return ErrShort
		}
		c := b[off]
		off++
		run := int(c>>game.InputBits) + 1
		if run == runExtended {
			e, n := binary.Uvarint(b[off:])
			if n == 0 {
				return ErrShort
			}
			if n < 0 || e > RingSize {
				return fmt.Errorf("%w: run length out of range", ErrInvalid)
			}
			off += n
			run = runExtended + int(e)
		}
		if len(in)+run > count {
			return fmt.Errorf("%w: runs add up to more than %d inputs", ErrInvalid, count)
		}
		v := game.Input(c) & game.InputMask
		for k := 0; k < run; k++ {
			in = append(in, v)
		}
	}
	if off != len(b) {
		return fmt.Errorf("%w: %d bytes after the last run", ErrInvalid, len(b)-off)
	}
	m.First, m.Inputs = first, in
	return nil
}

// AppendState appends a state message to b.
func AppendState(b []byte, m *StateMsg) []byte {
	b = append(b, MsgState, version)
	b = binary.LittleEndian.AppendUint32(b, m.Tick)
	b = binary.LittleEndian.AppendUint64(b, m.Hash)
	b = binary.LittleEndian.AppendUint64(b, m.Chain)
	b = binary.LittleEndian.AppendUint32(b, m.Events)
	b = binary.LittleEndian.AppendUint32(b, m.Skipped)
	return physics.AppendState(b, &m.State)
}

// DecodeState parses a state message into m, reusing m.State's buffers. It
// checks that the state's tick and hash match the header.
func DecodeState(b []byte, m *StateMsg) error {
	if k, err := MsgKind(b); err != nil {
		return err
	} else if k != MsgState {
		return fmt.Errorf("%w: kind %d is not a state message", ErrInvalid, k)
	}
	if len(b) < stateHeader {
		return ErrShort
	}
	m.Tick = binary.LittleEndian.Uint32(b[2:])
	m.Hash = binary.LittleEndian.Uint64(b[6:])
	m.Chain = binary.LittleEndian.Uint64(b[14:])
	m.Events = binary.LittleEndian.Uint32(b[22:])
	m.Skipped = binary.LittleEndian.Uint32(b[26:])
	n, err := physics.DecodeState(b[stateHeader:], &m.State, maxBodies, maxContacts)
	if errors.Is(err, physics.ErrShort) {
		return ErrShort
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if stateHeader+n != len(b) {
		return fmt.Errorf("%w: %d bytes after the state", ErrInvalid, len(b)-stateHeader-n)
	}
	if m.State.Tick != m.Tick {
		return fmt.Errorf("%w: state of tick %d labelled %d", ErrInvalid, m.State.Tick, m.Tick)
	}
	if h := m.State.Hash(); h != m.Hash {
		return fmt.Errorf("%w: state hash %016x, header says %016x", ErrInvalid, h, m.Hash)
	}
	return nil
}
