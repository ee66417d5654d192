package record

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Writer writes a record incrementally. Each call appends to the open chunk;
// a chunk is written to the underlying io.Writer, in one Write, when it holds
// ChunkSteps steps, when Flush is called, or by Close. A crash therefore loses
// at most the open chunk, and the file read back is Truncated, not corrupt.
//
// Calls must follow the server: Event for the coming tick, then Tick for it;
// or Skip from the coming tick. A call out of order returns an error and
// changes nothing. An error from the underlying io.Writer is kept and
// returned by every later call. A Writer is not safe for concurrent use.
type Writer struct {
	out       io.Writer
	fullEvery uint32
	nbodies   int // bodies of every state, from Header.Initial
	players   int // inputs of every tick, from Header.Scene

	buf    []byte // the open chunk: frame head, payload so far
	nsteps int    // steps in the open chunk
	start  uint32 // world tick before the open chunk's first step
	cur    uint32 // world tick now: the next tick to record

	steps     uint64       // steps written or buffered
	simulated uint64       // tick steps among them
	sinceFull uint32       // simulated ticks since the last stored full state
	events    []game.Event // for the coming tick
	stagesOn  bool         // Header.Stages
	stages    []uint64     // the coming tick's path and stage hashes, when given (Stages)

	last     physics.State // the state after the last step, when it is a tick and it was given
	lastHash uint64        // the hash recorded for it
	haveLast bool
	lastFull bool // the last step stored its full state

	bounds game.Bounds // of the scene: every state and nudge given must keep them (checkState)

	err    error // sticky error from the underlying writer
	closed bool
}

// ErrClosed is returned by a Writer's methods after Close.
var ErrClosed = errors.New("record: writer is closed")

// NewWriter checks h, writes the magic, the version and the header chunk to
// w, and returns a Writer for the ticks that follow h.Initial. It refuses a
// header whose scene this program cannot build as h.Scene says, or whose
// configuration or initial state that scene would not accept, so that what
// it writes can be replayed.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if h.Physics == (physics.Config{}) {
		h.Physics = physics.DefaultConfig()
	}
	if h.FullEvery == 0 {
		h.FullEvery = DefaultFullEvery
	}
	h.Engine = physics.EngineRevision
	if len(h.Meta) > MaxMeta {
		return nil, fmt.Errorf("record: meta is %d bytes, at most %d allowed", len(h.Meta), MaxMeta)
	}
	_, _, bd, err := Build(&h)
	if err != nil {
		return nil, fmt.Errorf("record: header: %w", err)
	}
	b := append(make([]byte, 0, 4096), Magic...)
	version := uint32(versionNoStages)
	if h.Stages {
		version = Version
	}
	b = le.AppendUint32(b, version)
	b, off := beginChunk(b, chunkHeader)
	b = appendHeader(b, &h)
	if len(b)-off-frameHead > MaxChunkLen {
		return nil, fmt.Errorf("record: header is %d bytes, at most %d allowed", len(b)-off-frameHead, MaxChunkLen)
	}
	b = endChunk(b, off)
	if _, err := w.Write(b); err != nil {
		return nil, fmt.Errorf("record: writing the header: %w", err)
	}
	wr := &Writer{
		out:       w,
		fullEvery: h.FullEvery,
		nbodies:   len(h.Initial.Bodies),
		players:   h.Scene.Players,
		buf:       b[:0],
		start:     h.Initial.Tick,
		bounds:    bd,
		cur:       h.Initial.Tick,
		stagesOn:  h.Stages,
	}
	return wr, nil
}

// usable returns the error that stops every call, if any.
func (w *Writer) usable() error {
	if w.closed {
		return ErrClosed
	}
	return w.err
}

// Event records a server-only event for the coming tick, applied before
// the tick's inputs in the order of the Event calls. Events for a tick that
// is never recorded (the session ends first) are dropped.
func (w *Writer) Event(tick uint32, e game.Event) error {
	if err := w.usable(); err != nil {
		return err
	}
	if tick != w.cur {
		return fmt.Errorf("record: event for tick %d, but the coming tick is %d", tick, w.cur)
	}
	if err := checkEvent(e, w.players); err != nil {
		return fmt.Errorf("record: event for tick %d: %w", tick, err)
	}
	if err := w.bounds.CheckEvent(e); err != nil {
		return fmt.Errorf("record: event for tick %d: %w: %v", tick, ErrAbsurd, err)
	}
	if len(w.events) >= MaxEventsPerTick {
		return fmt.Errorf("record: tick %d has more than %d events", tick, MaxEventsPerTick)
	}
	w.events = append(w.events, e)
	return nil
}

// Stages records the stage hashes of the coming tick's step, h.Tick
// (physics.World.StageHashes), to be stored with it: a replay that
// diverges there names the first stage that differs. The header must
// have Stages set. A tick recorded without them has none.
func (w *Writer) Stages(h *physics.StageHashes) error {
	if err := w.usable(); err != nil {
		return err
	}
	switch {
	case !w.stagesOn:
		return errors.New("record: stage hashes for a record whose header has no Stages")
	case h.Tick != w.cur:
		return fmt.Errorf("record: stage hashes of tick %d, but the coming tick is %d", h.Tick, w.cur)
	case len(h.Hashes) == 0 || len(h.Hashes) > MaxStages:
		return fmt.Errorf("record: tick %d: %d stage hashes (1 to %d)", h.Tick, len(h.Hashes), MaxStages)
	}
	w.stages = append(append(w.stages[:0], h.Path), h.Hashes...)
	return nil
}

// checkEvent refuses an event the format cannot store or a replay could not
// apply.
func checkEvent(e game.Event, players int) error {
	if eventLen(e.Kind) < 0 {
		return fmt.Errorf("unknown event kind %d", uint8(e.Kind))
	}
	if int(e.Player) >= players {
		return fmt.Errorf("%s for player %d of %d", e.Kind, e.Player, players)
	}
	if e.Kind == game.Nudge && !e.Impulse.Finite() {
		return fmt.Errorf("nudge impulse %v is not finite", e.Impulse)
	}
	return nil
}

// Tick records that tick was simulated with the players' inputs ins, one
// per player of the scene (after the events given for it), and that the
// state after the step hashes to hashAfter.
// after is that state (its Tick is tick+1): the writer stores it as a full
// state every FullEvery simulated ticks, and the last one given at Close if
// it is not stored yet. after may be nil; a full state that falls due on such
// a tick is stored at the next tick that has one. A stored state must hash to
// hashAfter. A state to be stored with a value that is not finite or
// beyond the scene's bounds (game.BoundsOf) is refused with an error that
// wraps ErrAbsurd, and nothing is recorded for the tick: the replay and
// the viewer would refuse it. (The states not stored are not checked: the
// check would cost the server's tick tens of µs in a scene of 900 cubes.)
func (w *Writer) Tick(tick uint32, ins []game.Input, hashAfter uint64, after *physics.State) error {
	if err := w.usable(); err != nil {
		return err
	}
	if tick != w.cur {
		return fmt.Errorf("record: tick %d recorded, but the coming tick is %d", tick, w.cur)
	}
	if len(ins) != w.players {
		return fmt.Errorf("record: tick %d: %d inputs for %d players", tick, len(ins), w.players)
	}
	for p, in := range ins {
		if !in.Valid() {
			return fmt.Errorf("record: tick %d: player %d's input %#x has bits outside %#x", tick, p, uint8(in), uint8(game.InputMask))
		}
	}
	full := false
	if after != nil {
		if after.Tick != tick+1 {
			return fmt.Errorf("record: tick %d: the state after it is labelled tick %d, want %d", tick, after.Tick, tick+1)
		}
		if len(after.Bodies) != w.nbodies {
			return fmt.Errorf("record: tick %d: the state after it has %d bodies, the initial state %d", tick, len(after.Bodies), w.nbodies)
		}
		full = w.sinceFull+1 >= w.fullEvery
		if full {
			if err := checkState(w.bounds, after); err != nil {
				return fmt.Errorf("record: tick %d: the state after it: %w; not recorded", tick, err)
			}
			if h := after.Hash(); h != hashAfter {
				return fmt.Errorf("record: tick %d: the state after it hashes to %016x, not the %016x given", tick, h, hashAfter)
			}
		}
	}
	n := tickEntryFixed + w.players
	if len(w.events) > 0 {
		n++
		for _, e := range w.events {
			n += eventHead + eventLen(e.Kind)
		}
	}
	if len(w.stages) > 0 {
		n += stagesHead + 8*(len(w.stages)-1)
	}
	if full {
		n += after.EncodedSize()
	}
	if err := w.room(n); err != nil {
		return fmt.Errorf("record: tick %d: %w", tick, err)
	}

	kind := byte(entryTick)
	if len(w.events) > 0 {
		kind |= flagEvents
	}
	if full {
		kind |= flagFull
	}
	if len(w.stages) > 0 {
		kind |= flagStages
	}
	w.buf = append(w.buf, kind)
	for _, in := range ins {
		w.buf = append(w.buf, byte(in))
	}
	w.buf = le.AppendUint64(w.buf, hashAfter)
	if len(w.events) > 0 {
		w.buf = append(w.buf, byte(len(w.events)))
		for _, e := range w.events {
			w.buf = append(w.buf, byte(e.Kind), e.Player)
			if e.Kind == game.Nudge {
				w.buf = appendVec(w.buf, e.Impulse)
			}
		}
		w.events = w.events[:0]
	}
	if len(w.stages) > 0 {
		w.buf = le.AppendUint16(w.buf, uint16(len(w.stages)-1))
		for _, h := range w.stages {
			w.buf = le.AppendUint64(w.buf, h)
		}
		w.stages = w.stages[:0]
	}
	if full {
		w.buf = physics.AppendState(w.buf, after)
		w.sinceFull = 0
	} else {
		w.sinceFull++
	}
	w.haveLast, w.lastFull = after != nil, full
	if after != nil && !full {
		w.last.CopyFrom(after)
		w.lastHash = hashAfter
	}
	w.cur = tick + 1
	w.simulated++
	return w.added()
}

// Skip records that the server jumped from tick from to tick to without
// simulating the ticks between. from must be the coming tick, with no events
// given for it; to is ahead of from by less than MaxSkip, counted with
// wrap-around. A skip to from itself records nothing.
func (w *Writer) Skip(from, to uint32) error {
	if err := w.usable(); err != nil {
		return err
	}
	if from != w.cur {
		return fmt.Errorf("record: skip from tick %d, but the coming tick is %d", from, w.cur)
	}
	if len(w.events) > 0 {
		return fmt.Errorf("record: skip from tick %d, which has %d events", from, len(w.events))
	}
	if len(w.stages) > 0 {
		return fmt.Errorf("record: skip from tick %d, which has stage hashes", from)
	}
	d := to - from
	if d == 0 {
		return nil
	}
	if d >= MaxSkip {
		return fmt.Errorf("record: skip from tick %d to %d goes backwards", from, to)
	}
	if err := w.room(skipEntryLen); err != nil {
		return fmt.Errorf("record: skip from tick %d: %w", from, err)
	}
	w.buf = append(w.buf, entrySkip)
	w.buf = le.AppendUint32(w.buf, to)
	w.cur = to
	w.haveLast, w.lastFull = false, false
	return w.added()
}

// room makes sure an entry of n bytes fits in the open chunk, ending the
// chunk first if needed, and opens a chunk if none is open.
func (w *Writer) room(n int) error {
	if stepsHeadLen+n > MaxChunkLen {
		return fmt.Errorf("an entry of %d bytes does not fit in a chunk of at most %d", n, MaxChunkLen)
	}
	if w.nsteps > 0 && len(w.buf)-frameHead+n > MaxChunkLen {
		if err := w.Flush(); err != nil {
			return err
		}
	}
	if w.nsteps == 0 {
		w.buf, _ = beginChunk(w.buf[:0], chunkSteps)
		w.buf = le.AppendUint32(w.buf, w.cur) // start
		w.buf = le.AppendUint32(w.buf, 0)     // end, set by Flush
		w.buf = le.AppendUint16(w.buf, 0)     // steps, set by Flush
		w.start = w.cur
	}
	return nil
}

// added counts the entry just appended and ends the chunk when it is full.
func (w *Writer) added() error {
	w.nsteps++
	w.steps++
	if w.nsteps >= ChunkSteps {
		return w.Flush()
	}
	return nil
}

// Flush ends the open chunk, if it holds any step, and writes it. Events
// given for the coming tick stay pending. Flush does not sync a file.
func (w *Writer) Flush() error {
	if err := w.usable(); err != nil {
		return err
	}
	if w.nsteps == 0 {
		return nil
	}
	le.PutUint32(w.buf[frameHead+4:], w.cur)
	le.PutUint16(w.buf[frameHead+8:], uint16(w.nsteps))
	w.buf = endChunk(w.buf, 0)
	w.nsteps = 0
	if _, err := w.out.Write(w.buf); err != nil {
		w.err = fmt.Errorf("record: writing the chunk of %s: %w", tickRange(w.start, w.cur), err)
		return w.err
	}
	return nil
}

// Close flushes the open chunk and writes the end marker, with the state
// after the last tick if that tick did not store it. It does not close the
// underlying io.Writer. Events given for a tick never recorded are dropped.
// If the last state given does not hash to the hash given with it, or
// holds a value that is not finite or beyond the scene's bounds, Close
// still ends the record, without that state, and says so.
func (w *Writer) Close() error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	w.closed = true
	var bad error
	final := w.haveLast && !w.lastFull && endPayloadLen+w.last.EncodedSize() <= MaxChunkLen
	if final {
		if h := w.last.Hash(); h != w.lastHash {
			final = false
			bad = fmt.Errorf("record: the state after tick %d hashes to %016x, not the %016x given; not stored", w.last.Tick-1, h, w.lastHash)
		} else if err := checkState(w.bounds, &w.last); err != nil {
			final = false
			bad = fmt.Errorf("record: the state after tick %d: %w; not stored", w.last.Tick-1, err)
		}
	}
	b, off := beginChunk(w.buf[:0], chunkEnd)
	b = le.AppendUint64(b, w.steps)
	b = le.AppendUint64(b, w.simulated)
	b = le.AppendUint32(b, w.cur)
	if final {
		b = physics.AppendState(b, &w.last)
	}
	b = endChunk(b, off)
	w.buf = b
	if _, err := w.out.Write(b); err != nil {
		w.err = fmt.Errorf("record: writing the end marker: %w", err)
		return w.err
	}
	return bad
}

// appendVec appends the three components of v as float64 bits.
func appendVec(b []byte, v physics.Vec3) []byte {
	b = le.AppendUint64(b, math.Float64bits(v.X))
	b = le.AppendUint64(b, math.Float64bits(v.Y))
	return le.AppendUint64(b, math.Float64bits(v.Z))
}
