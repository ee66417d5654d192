package record

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// StepKind says what a Step is.
type StepKind uint8

// Step kinds.
const (
	StepTick StepKind = iota + 1 // a simulated tick
	StepSkip                     // a jump over ticks that were not simulated
)

func (k StepKind) String() string {
	switch k {
	case StepTick:
		return "tick"
	case StepSkip:
		return "skip"
	}
	return fmt.Sprintf("StepKind(%d)", uint8(k))
}

// Step is one thing the server did to its world, in order.
type Step struct {
	Kind   StepKind
	Tick   uint32         // the world's tick before the step
	To     uint32         // StepSkip: the tick jumped to, without simulating
	Inputs []game.Input   // StepTick: each player's input simulated
	Events []game.Event   // StepTick: server-only events before the inputs, in order
	Hash   uint64         // StepTick: the hash of the state after the step, labelled Tick+1
	Full   *physics.State // StepTick: that state, when the record stores it; nil otherwise
	// Stages: the step's stage hashes, when the record stores them
	// (Header.Stages); nil otherwise. Read shares them with the record.
	Stages *physics.StageHashes
	Chunk  int // the chunk that holds the step; the header is chunk 0
}

// Record is a record read back, or built by NewRecord. Its steps are
// reached through Len and Step: Read keeps them packed (see
// MaxAllocPerByte).
type Record struct {
	Header       Header
	Truncated    bool   // the input ends before the end marker; the steps are those of every complete chunk
	TruncatedWhy string // what the input ends with, when Truncated
	Chunks       int    // complete chunks read, the header (chunk 0) and the end marker included

	steps packed // as read
	built []Step // as built by NewRecord; nil for a record read
	first int    // the first step of this view (From)
}

// errCut is what read returns when the input ends before p is full.
var errCut = errors.New("cut")

// reader reads one record.
type reader struct {
	br    *bufio.Reader
	n     int64 // bytes consumed
	limit int64
	buf   []byte // payload and CRC of the current chunk
	rec   *Record

	tick      uint32 // world tick after the last complete chunk
	simulated uint64 // tick steps so far
	maxBodies int
	nbodies   int
	players   int
}

// Read reads a record from r, reading at most maxBytes bytes (maxBytes <= 0:
// DefaultMaxBytes). Every length is checked against the format's limits
// before anything is allocated, so memory stays bounded whatever the input:
// Read allocates in all at most MaxAllocPerByte (4) bytes per byte of input
// (a file packed with skips takes 3.2), plus about a MiB for its buffers.
//
// An input cut short after the header, at a chunk boundary or inside a
// chunk, gives a record with Truncated set and the steps of every complete
// chunk. Anything else wrong gives an error that wraps one of ErrNotRecord,
// ErrVersion, ErrEngine (made by another engine revision: one line naming
// both), ErrShort (cut before the header is complete), ErrChecksum,
// ErrMalformed or ErrTooLarge, names the chunk and, when known, the ticks it
// covers; or an error from r.
func Read(r io.Reader, maxBytes int64) (*Record, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	rd := &reader{br: bufio.NewReader(r), limit: maxBytes, rec: &Record{}}
	if err := rd.preamble(); err != nil {
		return nil, err
	}
	if err := rd.header(); err != nil {
		return nil, err
	}
	for chunk := 1; ; chunk++ {
		done, err := rd.next(chunk)
		if err != nil {
			return nil, err
		}
		if done {
			return rd.rec, nil
		}
	}
}

// read fills p from the input, or reports errCut with the bytes it got.
func (rd *reader) read(p []byte) (int, error) {
	if rd.n+int64(len(p)) > rd.limit {
		return 0, fmt.Errorf("record: %w: more than the limit of %d bytes", ErrTooLarge, rd.limit)
	}
	k, err := io.ReadFull(rd.br, p)
	rd.n += int64(k)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return k, errCut
	}
	if err != nil {
		return k, fmt.Errorf("record: reading at byte %d: %w", rd.n, err)
	}
	return k, nil
}

// preamble reads the magic and the version.
func (rd *reader) preamble() error {
	var p [preamble]byte
	k, err := rd.read(p[:])
	if err != nil && err != errCut {
		return err
	}
	if k == 0 {
		return fmt.Errorf("record: %w: the input is empty", ErrNotRecord)
	}
	m := min(k, len(Magic))
	if string(p[:m]) != Magic[:m] {
		return fmt.Errorf("record: %w: it starts with %q, not %q", ErrNotRecord, p[:m], Magic)
	}
	if k < len(p) {
		return fmt.Errorf("record: %w: %d bytes", ErrShort, k)
	}
	v := le.Uint32(p[len(Magic):])
	if v == 2 { // the same format, from before engine revisions
		return engineError(0)
	}
	if v != Version && v != versionNoStages {
		return fmt.Errorf("record: %w %d: this reader reads versions %d and %d", ErrVersion, v, versionNoStages, Version)
	}
	rd.rec.Header.Stages = v == Version
	return nil
}

// chunk is one chunk read whole.
type chunk struct {
	typ     byte
	payload []byte
	ok      bool // read whole and checked
}

// readChunk reads the next chunk. When the input ends at its start or
// inside it, cut says how and the chunk is empty. at describes the chunk
// for errors; atPayload refines it once the payload is known.
func (rd *reader) readChunk(at string, atPayload func(c chunk) string) (c chunk, cut string, err error) {
	var head [frameHead]byte
	k, err := rd.read(head[:])
	if err == errCut {
		if k == 0 {
			return c, "", nil
		}
		return c, fmt.Sprintf("%s is cut short in its frame head: %d of %d bytes", at, k, frameHead), nil
	}
	if err != nil {
		return c, "", err
	}
	if le.Uint32(head[5:]) != crc32.Checksum(head[:5], crcTable) {
		return c, "", fmt.Errorf("record: %s: %w in the frame head", at, ErrChecksum)
	}
	c.typ = head[0]
	n := le.Uint32(head[1:])
	if n > MaxChunkLen {
		return c, "", fmt.Errorf("record: %s: %w: a payload of %d bytes, at most %d allowed", at, ErrTooLarge, n, MaxChunkLen)
	}
	need := int(n) + frameTail
	if cap(rd.buf) < need {
		rd.buf = make([]byte, need)
	}
	b := rd.buf[:need]
	k, err = rd.read(b)
	if err == errCut {
		return c, fmt.Sprintf("%s is cut short: %d of %d bytes", at, frameHead+k, frameHead+need), nil
	}
	if err != nil {
		return c, "", err
	}
	c.payload = b[:n]
	if le.Uint32(b[n:]) != payloadCRC(head[:], c.payload) {
		if atPayload != nil {
			at = atPayload(c)
		}
		return c, "", fmt.Errorf("record: %s: %w", at, ErrChecksum)
	}
	c.ok = true
	rd.rec.Chunks++
	return c, "", nil
}

// header reads the header chunk, chunk 0.
func (rd *reader) header() error {
	const at = "header (chunk 0)"
	c, cut, err := rd.readChunk(at, nil)
	if err != nil {
		return err
	}
	if !c.ok {
		if cut == "" {
			cut = "the input ends before the header chunk"
		}
		return fmt.Errorf("record: %w: %s", ErrShort, cut)
	}
	if c.typ != chunkHeader {
		return fmt.Errorf("record: %s: %w: type %q, want %q", at, ErrMalformed, c.typ, chunkHeader)
	}
	h := &rd.rec.Header
	if err := decodeHeader(c.payload, h); errors.Is(err, ErrEngine) {
		return err
	} else if err != nil {
		return fmt.Errorf("record: %s: %w: %v", at, ErrMalformed, err)
	}
	rd.tick = h.Initial.Tick
	rd.maxBodies = maxBodies(&h.Physics)
	rd.nbodies = len(h.Initial.Bodies)
	rd.players = h.Scene.Players
	rd.rec.steps.players = h.Scene.Players
	return nil
}

// next reads chunk number i, after the header. It reports done at the end
// marker or at the end of a truncated input.
func (rd *reader) next(i int) (done bool, err error) {
	at := fmt.Sprintf("chunk %d (from tick %d)", i, rd.tick)
	c, cut, err := rd.readChunk(at, func(c chunk) string {
		// The payload failed its CRC, but its first field is probably
		// right if it is the tick the chunk must start at.
		if c.typ == chunkSteps && len(c.payload) >= 8 && le.Uint32(c.payload) == rd.tick {
			return fmt.Sprintf("chunk %d (%s)", i, tickRange(rd.tick, le.Uint32(c.payload[4:])))
		}
		if c.typ == chunkEnd {
			return fmt.Sprintf("chunk %d (end marker, at tick %d)", i, rd.tick)
		}
		return at
	})
	if err != nil {
		return false, err
	}
	if !c.ok {
		rd.rec.Truncated = true
		rd.rec.TruncatedWhy = cut
		if cut == "" {
			rd.rec.TruncatedWhy = fmt.Sprintf("the input ends after chunk %d, at tick %d, without an end marker", i-1, rd.tick)
		}
		return true, nil
	}
	switch c.typ {
	case chunkSteps:
		return false, rd.steps(i, c.payload)
	case chunkEnd:
		return true, rd.end(i, c.payload)
	}
	return false, fmt.Errorf("record: %s: %w: unknown chunk type %q", at, ErrMalformed, c.typ)
}

// steps parses the payload of steps chunk i.
func (rd *reader) steps(i int, p []byte) error {
	if len(p) < stepsHeadLen {
		return fmt.Errorf("record: chunk %d (from tick %d): %w: %d bytes, want at least %d", i, rd.tick, ErrMalformed, len(p), stepsHeadLen)
	}
	start, end, count := le.Uint32(p), le.Uint32(p[4:]), int(le.Uint16(p[8:]))
	at := fmt.Sprintf("chunk %d (%s)", i, tickRange(start, end))
	bad := func(format string, args ...any) error {
		return fmt.Errorf("record: %s: %w: %s", at, ErrMalformed, fmt.Sprintf(format, args...))
	}
	if start != rd.tick {
		return bad("starts at tick %d, want %d", start, rd.tick)
	}
	p = p[stepsHeadLen:]
	if count == 0 || count > len(p)/minEntryLen {
		return bad("%d steps in %d bytes", count, len(p))
	}
	// The chunk's steps go into the record as they are read; should the
	// chunk turn out malformed, Read returns an error and no record.
	ps := &rd.rec.steps
	ps.chunks = append(ps.chunks, stepRef{pos: uint32(ps.n), off: uint32(i)})
	t := start
	for k := 0; k < count; k++ {
		if len(p) < 1 {
			return bad("step %d of %d is missing", k+1, count)
		}
		kind := p[0]
		// A tick's flags; stage hashes only in a record of version 4.
		tickKind := kind&^(flagEvents|flagFull|flagStages) == entryTick && (kind&flagStages == 0 || rd.rec.Header.Stages)
		switch {
		case kind == entrySkip:
			if len(p) < skipEntryLen {
				return bad("skip at tick %d is cut short", t)
			}
			to := le.Uint32(p[1:])
			if d := to - t; d == 0 || d >= MaxSkip {
				return bad("skip from tick %d to %d does not go forwards", t, to)
			}
			ps.add(packedStep{tick: t, aux: skipAux, hash: uint64(to)})
			p = p[skipEntryLen:]
			t = to
		case tickKind:
			n, err := rd.tickEntry(t, p)
			if err != nil {
				return bad("tick %d: %v", t, err)
			}
			p = p[n:]
			t++
			rd.simulated++
		default:
			return bad("step %d (tick %d) has unknown kind %#02x", k+1, t, kind)
		}
		if uint64(ps.n) > math.MaxUint32-1 {
			return bad("more than %d steps", uint64(math.MaxUint32-1))
		}
	}
	if len(p) != 0 {
		return bad("%d bytes after the last step", len(p))
	}
	if t != end {
		return bad("the steps end at tick %d, the chunk says %d", t, end)
	}
	rd.tick = end
	return nil
}

// tickEntry parses the entry of tick t from the start of p, adds it to
// the record and returns its length.
func (rd *reader) tickEntry(t uint32, p []byte) (int, error) {
	if len(p) < tickEntryFixed+rd.players {
		return 0, errors.New("entry cut short")
	}
	kind := p[0]
	ps := &rd.rec.steps
	pos := uint32(ps.n)
	ticks := rd.simulated // the ticks before this one
	if ticks >= skipAux {
		return 0, errors.New("too many ticks")
	}
	for k := 0; k < rd.players; k++ {
		in := game.Input(p[1+k])
		if !in.Valid() {
			return 0, fmt.Errorf("player %d's input %#02x has bits outside %#02x", k, p[1+k], uint8(game.InputMask))
		}
	}
	off := 1 + rd.players
	hash := le.Uint64(p[off:])
	off += 8
	if kind&flagEvents != 0 {
		if len(p) < off+1 {
			return 0, errors.New("event count missing")
		}
		n := int(p[off])
		off++
		if n == 0 || len(p)-off < n*eventHead {
			return 0, fmt.Errorf("%d events in %d bytes", n, len(p)-off)
		}
		first := off
		for k := 0; k < n; k++ {
			if len(p)-off < eventHead {
				return 0, fmt.Errorf("event %d is cut short", k+1)
			}
			e := game.Event{Kind: game.EventKind(p[off]), Player: p[off+1]}
			off += eventHead
			size := eventLen(e.Kind)
			if size < 0 || len(p)-off < size {
				return 0, fmt.Errorf("event %d: kind %d, %d bytes left", k+1, uint8(e.Kind), len(p)-off)
			}
			if e.Kind == game.Nudge {
				f := func(j int) float64 { return math.Float64frombits(le.Uint64(p[off+8*j:])) }
				e.Impulse = physics.Vec3{X: f(0), Y: f(1), Z: f(2)}
			}
			if err := checkEvent(e, rd.players); err != nil {
				return 0, fmt.Errorf("event %d: %v", k+1, err)
			}
			off += size
		}
		ps.evAt = append(ps.evAt, stepRef{pos: pos, off: uint32(len(ps.events))})
		ps.events = append(ps.events, p[first:off]...)
	}
	if kind&flagStages != 0 {
		if len(p)-off < stagesHead {
			return 0, errors.New("stage hashes cut short")
		}
		n := int(le.Uint16(p[off:]))
		if n == 0 || n > MaxStages || (len(p)-off-stagesHead)/8 < n {
			return 0, fmt.Errorf("%d stage hashes (1 to %d) in %d bytes", n, MaxStages, len(p)-off-stagesHead)
		}
		off += 2
		ps.stAt = append(ps.stAt, stepRef{pos: pos, off: uint32(len(ps.stages))})
		for k := 0; k <= n; k++ {
			ps.stages = append(ps.stages, le.Uint64(p[off+8*k:]))
		}
		off += 8 * (n + 1)
	}
	if kind&flagFull != 0 {
		st, n, err := rd.state(p[off:], t+1, hash)
		if err != nil {
			return 0, err
		}
		ps.fulls = append(ps.fulls, fullRef{pos: pos, st: st})
		off += n
	}
	for k := 0; k < rd.players; k++ {
		ps.inputs = append(ps.inputs, game.Input(p[1+k]))
	}
	ps.add(packedStep{tick: t, aux: uint32(ticks), hash: hash})
	return off, nil
}

// state decodes a stored full state that must be labelled tick and hash to
// hash, and returns it and its length.
func (rd *reader) state(p []byte, tick uint32, hash uint64) (*physics.State, int, error) {
	st := new(physics.State)
	n, err := physics.DecodeState(p, st, rd.maxBodies, MaxContacts)
	if err != nil {
		return nil, 0, fmt.Errorf("full state: %w", err)
	}
	if len(st.Bodies) != rd.nbodies {
		return nil, 0, fmt.Errorf("full state has %d bodies, the initial state %d", len(st.Bodies), rd.nbodies)
	}
	if st.Tick != tick {
		return nil, 0, fmt.Errorf("full state is labelled tick %d, want %d", st.Tick, tick)
	}
	if h := st.Hash(); h != hash {
		return nil, 0, fmt.Errorf("full state hashes to %016x, recorded %016x", h, hash)
	}
	return st, n, nil
}

// end parses the end marker, chunk i, and checks that nothing follows it.
func (rd *reader) end(i int, p []byte) error {
	at := fmt.Sprintf("chunk %d (end marker, at tick %d)", i, rd.tick)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("record: %s: %w: %s", at, ErrMalformed, fmt.Sprintf(format, args...))
	}
	if len(p) < endPayloadLen {
		return bad("%d bytes, want at least %d", len(p), endPayloadLen)
	}
	ps := &rd.rec.steps
	steps, simulated, end := le.Uint64(p), le.Uint64(p[8:]), le.Uint32(p[16:])
	if steps != uint64(ps.n) || simulated != rd.simulated || end != rd.tick {
		return bad("it counts %d steps, %d ticks, ending at tick %d; the record has %d, %d, %d",
			steps, simulated, end, ps.n, rd.simulated, rd.tick)
	}
	if p = p[endPayloadLen:]; len(p) > 0 {
		last := ps.n - 1
		if last < 0 || ps.at(last).aux == skipAux || ps.hasFull(last) {
			return bad("a final state, but the last step is not a tick without one")
		}
		s := ps.at(last)
		st, n, err := rd.state(p, s.tick+1, s.hash)
		if err != nil {
			return bad("after tick %d: %v", s.tick, err)
		}
		if n != len(p) {
			return bad("%d bytes after the final state", len(p)-n)
		}
		ps.fulls = append(ps.fulls, fullRef{pos: uint32(last), st: st})
	}
	if _, err := rd.br.ReadByte(); err == nil {
		return fmt.Errorf("record: %w: data after the end marker (chunk %d)", ErrMalformed, i)
	} else if err != io.EOF {
		return fmt.Errorf("record: after the end marker: %w", err)
	}
	return nil
}
