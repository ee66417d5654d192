package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/game/gametest"
	"github.com/cubelab/cube/physics"
)

// smallSession is a record with every kind of entry: events, skips, full
// states every 16 ticks, a final state.
func smallSession(t testing.TB) written {
	return writeSession(t, session{ticks: 250, fullEvery: 16, skips: true, events: true, nudgeAt: -1})
}

func TestEveryPrefixIsTruncatedOrAnError(t *testing.T) {
	s := smallSession(t)
	full := readOK(t, s.data)
	offs := chunkOffsets(s.data)
	headerEnd := offs[1]
	prevSteps := 0
	for n := 0; n < len(s.data); n++ {
		rec, err := Read(bytes.NewReader(s.data[:n]), 0)
		if n < headerEnd {
			if err == nil {
				t.Fatalf("prefix of %d bytes (header ends at %d): no error", n, headerEnd)
			}
			if n == 0 && !errors.Is(err, ErrNotRecord) || n > 0 && !errors.Is(err, ErrShort) {
				t.Fatalf("prefix of %d bytes: %v", n, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("prefix of %d bytes: %v", n, err)
		}
		if !rec.Truncated || rec.TruncatedWhy == "" {
			t.Fatalf("prefix of %d bytes not marked truncated", n)
		}
		// Exactly the complete chunks: those that end at or before n.
		chunks := 0
		for k, off := range offs {
			end := len(s.data)
			if k+1 < len(offs) {
				end = offs[k+1]
			}
			if off < n && end <= n || end <= n {
				chunks++
			}
		}
		if rec.Chunks != chunks {
			t.Fatalf("prefix of %d bytes: %d chunks, want %d", n, rec.Chunks, chunks)
		}
		if rec.Len() < prevSteps || rec.Len() > full.Len() {
			t.Fatalf("prefix of %d bytes: %d steps (previous prefix %d, whole %d)", n, rec.Len(), prevSteps, full.Len())
		}
		prevSteps = rec.Len()
		for i := range rec.Len() {
			if d := sameStep(ptr(rec.Step(i)), ptr(full.Step(i))); d != "" {
				t.Fatalf("prefix of %d bytes, step %d: %s", n, i, d)
			}
			if (rec.Step(i).Full != nil) != (full.Step(i).Full != nil) && i != full.Len()-1 {
				t.Fatalf("prefix of %d bytes, step %d: full state present %v, in the whole record %v", n, i, rec.Step(i).Full != nil, full.Step(i).Full != nil)
			}
		}
		// A prefix replays without divergence as far as it goes.
		if n%97 == 0 {
			res, err := Replay(rec)
			if err != nil || res.Divergence != nil {
				t.Fatalf("prefix of %d bytes: replay %+v, %v", n, res, err)
			}
		}
	}
}

func TestEveryFlippedByteIsAnError(t *testing.T) {
	s := smallSession(t)
	offs := chunkOffsets(s.data)
	data := bytes.Clone(s.data)
	for i := range data {
		masks := []byte{0xff}
		if i%7 == 0 {
			masks = append(masks, 1<<(i/7%8)) // a single bit, for a sample
		}
		for _, mask := range masks {
			data[i] ^= mask
			rec, err := Read(bytes.NewReader(data), 0)
			data[i] ^= mask
			if err == nil {
				t.Fatalf("byte %d ^ %#x: read %d steps, truncated %v, no error", i, mask, rec.Len(), rec.Truncated)
			}
			msg := err.Error()
			switch {
			case i < len(Magic):
				if !errors.Is(err, ErrNotRecord) {
					t.Fatalf("byte %d (magic): %v", i, err)
				}
			case i < preamble:
				if !errors.Is(err, ErrVersion) {
					t.Fatalf("byte %d (version): %v", i, err)
				}
			case i < offs[1]:
				if !errors.Is(err, ErrChecksum) || !strings.HasPrefix(msg, "record: header (chunk 0): checksum mismatch") {
					t.Fatalf("byte %d (header): %v", i, err)
				}
			default:
				k := len(offs) - 1
				for offs[k] > i {
					k--
				}
				want := fmt.Sprintf("record: chunk %d (", k)
				if !errors.Is(err, ErrChecksum) || !strings.HasPrefix(msg, want) {
					t.Fatalf("byte %d (chunk %d at %d): %v", i, k, offs[k], err)
				}
			}
		}
	}
}

func TestChecksumErrorNamesChunkAndTicks(t *testing.T) {
	s := writeSession(t, session{ticks: 1000, fullEvery: 64, nudgeAt: -1})
	offs := chunkOffsets(s.data)
	for _, tc := range []struct {
		at   int // byte offset in chunk 12
		want string
	}{
		{frameHead + 20, "record: chunk 12 (ticks 704-767): checksum mismatch"},
		{frameHead + 5, "record: chunk 12 (ticks 704-767): checksum mismatch"}, // the end tick: range from the chunk's start
		{1, "record: chunk 12 (from tick 704): checksum mismatch in the frame head"},
	} {
		data := bytes.Clone(s.data)
		data[offs[12]+tc.at] ^= 0x10
		_, err := Read(bytes.NewReader(data), 0)
		if err == nil || !errors.Is(err, ErrChecksum) {
			t.Fatalf("byte %d of chunk 12: %v", tc.at, err)
		}
		if tc.at != frameHead+5 && err.Error() != tc.want || !strings.HasPrefix(err.Error(), "record: chunk 12 (") {
			t.Errorf("byte %d of chunk 12: %q, want %q", tc.at, err, tc.want)
		}
	}
	last := len(offs) - 1
	data := bytes.Clone(s.data)
	data[offs[last]+frameHead] ^= 1
	if _, err := Read(bytes.NewReader(data), 0); err == nil || err.Error() != "record: chunk 17 (end marker, at tick 1000): checksum mismatch" {
		t.Fatalf("end marker: %v", err)
	}
}

// chunkBytes frames a chunk with valid checks.
func chunkBytes(typ byte, payload []byte) []byte {
	b, off := beginChunk(nil, typ)
	b = append(b, payload...)
	return endChunk(b, off)
}

func TestReadErrors(t *testing.T) {
	s := writeSession(t, session{ticks: 10, nudgeAt: -1})
	offs := chunkOffsets(s.data)
	body := s.data[:offs[len(offs)-1]] // without the end marker
	end := s.data[offs[len(offs)-1]:]
	stepsAt := func(start uint32, entries ...byte) []byte {
		p := le.AppendUint32(nil, start)
		p = le.AppendUint32(p, start+1)
		p = le.AppendUint16(p, 1)
		return chunkBytes(chunkSteps, append(p, entries...))
	}
	tick := func(kind, in byte) []byte { return append([]byte{kind, in}, 1, 2, 3, 4, 5, 6, 7, 8) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, tc := range []struct {
		name string
		data []byte
		is   error
		want string
	}{
		{"empty", nil, ErrNotRecord, "record: not a record: the input is empty"},
		{"text", []byte("hello, world\n"), ErrNotRecord, `record: not a record: it starts with "hello, w"`},
		{"magic only", []byte(Magic), ErrShort, "record: cut short before the header is complete: 8 bytes"},
		{"version 5", cat([]byte(Magic), []byte{5, 0, 0, 0}), ErrVersion, "record: unsupported version 5: this reader reads versions 3 and 4"},
		{"version 2", cat([]byte(Magic), []byte{2, 0, 0, 0}, s.data[preamble:]), ErrEngine,
			fmt.Sprintf("record: made by engine revision 0; this build runs revision %d", physics.EngineRevision)},
		{"another engine", otherEngine(s.data[:offs[1]], physics.EngineRevision+1), ErrEngine,
			fmt.Sprintf("record: made by engine revision %d; this build runs revision %d", physics.EngineRevision+1, physics.EngineRevision)},
		{"no header", s.data[:preamble], ErrShort, "the input ends before the header chunk"},
		{"steps first", cat(s.data[:preamble], s.data[offs[1]:]), ErrMalformed, `record: header (chunk 0): malformed: type 'S', want 'H'`},
		{"huge chunk", cat(body, chunkBytes(chunkSteps, nil)[:1], []byte{0xff, 0xff, 0xff, 0x7f}, le.AppendUint32(nil, crcOf('S', 0xff, 0xff, 0xff, 0x7f))),
			ErrTooLarge, "record: chunk 2 (from tick 10): too large: a payload of 2147483647 bytes, at most 1048576 allowed"},
		{"unknown chunk type", cat(body, chunkBytes('X', nil)), ErrMalformed, "record: chunk 2 (from tick 10): malformed: unknown chunk type 'X'"},
		{"second header", cat(body, s.data[offs[0]:offs[1]]), ErrMalformed, "unknown chunk type 'H'"},
		{"data after end", cat(s.data, []byte{0}), ErrMalformed, "record: malformed: data after the end marker (chunk 2)"},
		{"end marker miscounts", cat(body, chunkBytes(chunkEnd, make([]byte, endPayloadLen))), ErrMalformed, "record: chunk 2 (end marker, at tick 10): malformed: it counts 0 steps"},
		{"wrong start tick", cat(body, stepsAt(11, tick(entryTick, 0)...), end), ErrMalformed, "record: chunk 2 (tick 11): malformed: starts at tick 11, want 10"},
		{"input bits", cat(body, stepsAt(10, tick(entryTick, 0x40)...), end), ErrMalformed, "record: chunk 2 (tick 10): malformed: tick 10: player 0's input 0x40 has bits outside 0x3f"},
		{"unknown entry kind", cat(body, stepsAt(10, tick(0x41, 0)...), end), ErrMalformed, "step 1 (tick 10) has unknown kind 0x41"},
		{"zero events", cat(body, stepsAt(10, append(tick(entryTick|flagEvents, 0), 0)...), end), ErrMalformed, "tick 10: 0 events in 0 bytes"},
		{"too many events", cat(body, stepsAt(10, append(tick(entryTick|flagEvents, 0), 200)...), end), ErrMalformed, "tick 10: 200 events in 0 bytes"},
		{"infinite event", cat(body, stepsAt(10, append(append(tick(entryTick|flagEvents, 0), 1, 1, 0), le.AppendUint64(make([]byte, 16), 0x7ff0000000000000)...)...), end), ErrMalformed, "event 1: nudge impulse {0 0 +Inf} is not finite"},
		{"unknown event", cat(body, stepsAt(10, append(tick(entryTick|flagEvents, 0), 1, 9, 0)...), end), ErrMalformed, "event 1: kind 9, 0 bytes left"},
		{"event for player 2", cat(body, stepsAt(10, append(append(tick(entryTick|flagEvents, 0), 1, 1, 1), make([]byte, 24)...)...), end), ErrMalformed, "event 1: nudge for player 1 of 1"},
		{"backward skip", cat(body, stepsAt(10, entrySkip, 9, 0, 0, 0), end), ErrMalformed, "skip from tick 10 to 9 does not go forwards"},
		{"full state missing", cat(body, stepsAt(10, tick(entryTick|flagFull, 0)...), end), ErrMalformed, "tick 10: full state: physics: state encoding is cut short"},
		{"trailing bytes", cat(body, stepsAt(10, append(tick(entryTick, 0), 0, 0, 0, 0, 0)...), end), ErrMalformed, "5 bytes after the last step"},
		{"steps miscounted", cat(body, chunkBytes(chunkSteps, append(le.AppendUint16(le.AppendUint32(le.AppendUint32(nil, 10), 11), 3), tick(entryTick, 0)...)), end), ErrMalformed, "3 steps in 10 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := Read(bytes.NewReader(tc.data), 0)
			if err == nil {
				t.Fatalf("no error; %d steps", rec.Len())
			}
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %q, want %v and %q", err, tc.is, tc.want)
			}
		})
	}
}

// crcOf is the CRC-32 of b.
func crcOf(b ...byte) uint32 { return payloadCRC(append(b, 0), nil) }

func TestReadLimit(t *testing.T) {
	s := writeSession(t, session{ticks: 300, nudgeAt: -1})
	if _, err := Read(bytes.NewReader(s.data), int64(len(s.data))); err != nil {
		t.Fatalf("exactly the limit: %v", err)
	}
	_, err := Read(bytes.NewReader(s.data), int64(len(s.data)-1))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("one byte over the limit: %v", err)
	}
}

// failAfter fails every read or write after n bytes.
type failAfter struct {
	n   int
	buf bytes.Buffer
}

var errBroken = errors.New("broken pipe")

func (f *failAfter) Write(p []byte) (int, error) {
	if f.buf.Len()+len(p) > f.n {
		return 0, errBroken
	}
	return f.buf.Write(p)
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errBroken
	}
	k, err := f.buf.Read(p[:min(len(p), f.n)])
	f.n -= k
	if err == io.EOF {
		return k, err
	}
	return k, nil
}

func TestReadPassesOnIOErrors(t *testing.T) {
	s := writeSession(t, session{ticks: 100, nudgeAt: -1})
	for _, n := range []int{0, 5, 500, len(s.data) - 1} {
		f := &failAfter{n: n}
		f.buf.Write(s.data)
		if _, err := Read(f, 0); !errors.Is(err, errBroken) {
			t.Fatalf("failing after %d bytes: %v", n, err)
		}
	}
}

func TestWriterErrorsAreSticky(t *testing.T) {
	w := gametest.World()
	var init physics.State
	w.Save(&init)
	f := &failAfter{n: 2000}
	wr, err := NewWriter(f, Header{Scene: gametest.Scene.ID, Initial: init})
	if err != nil {
		t.Fatal(err)
	}
	var first error
	for k := 0; k < 500 && first == nil; k++ {
		tick := w.Tick()
		if err := gametest.Step(w, 0); err != nil {
			t.Fatal(err)
		}
		first = wr.Tick(tick, one(0), w.Hash(), w.State())
	}
	if !errors.Is(first, errBroken) {
		t.Fatalf("first error %v", first)
	}
	if err := wr.Tick(w.Tick(), one(0), 0, nil); !errors.Is(err, errBroken) {
		t.Fatalf("after a failed write: %v", err)
	}
	if err := wr.Close(); !errors.Is(err, errBroken) {
		t.Fatalf("close after a failed write: %v", err)
	}
	if _, err := NewWriter(&failAfter{n: 10}, Header{Scene: gametest.Scene.ID, Initial: init}); !errors.Is(err, errBroken) {
		t.Fatalf("header write: %v", err)
	}
}

func TestWriterRefusesWhatCannotBeReplayed(t *testing.T) {
	w := gametest.World()
	var init physics.State
	w.Save(&init)
	for _, tc := range []struct {
		name string
		h    Header
		want string
	}{
		{"long meta", Header{Scene: gametest.Scene.ID, Initial: init, Meta: strings.Repeat("x", MaxMeta+1)}, "meta is 4097 bytes"},
		{"bad config", Header{Scene: gametest.Scene.ID, Initial: init, Physics: physics.Config{Dt: -1}}, "config Dt"},
		{"initial does not fit", Header{Scene: gametest.Scene.ID, Initial: physics.State{Bodies: init.Bodies[:2]}}, "initial state"},
	} {
		if _, err := NewWriter(io.Discard, tc.h); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}

	var buf bytes.Buffer
	wr, err := NewWriter(&buf, Header{Scene: gametest.Scene.ID, Initial: init, FullEvery: 2})
	if err != nil {
		t.Fatal(err)
	}
	// One good tick, so that the next stored state falls due.
	if err := gametest.Step(w, game.Forward); err != nil {
		t.Fatal(err)
	}
	if err := wr.Tick(0, one(game.Forward), w.Hash(), w.State()); err != nil {
		t.Fatal(err)
	}
	if err := gametest.Step(w, 0); err != nil {
		t.Fatal(err)
	}
	after := w.State()
	var wrongTick physics.State
	wrongTick.CopyFrom(after)
	wrongTick.Tick = 7
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"tick out of order", func() error { return wr.Tick(2, one(0), w.Hash(), after) }, "tick 2 recorded, but the coming tick is 1"},
		{"input bits", func() error { return wr.Tick(1, one(0x40), w.Hash(), after) }, "input 0x40 has bits outside 0x3f"},
		{"two inputs for one player", func() error { return wr.Tick(1, []game.Input{0, 0}, w.Hash(), after) }, "2 inputs for 1 players"},
		{"state label", func() error { return wr.Tick(1, one(0), w.Hash(), &wrongTick) }, "labelled tick 7, want 2"},
		{"hash of a stored state", func() error { return wr.Tick(1, one(0), w.Hash()+1, after) }, "hashes to"},
		{"event for another tick", func() error { return wr.Event(2, nudge(physics.Vec3{})) }, "event for tick 2, but the coming tick is 1"},
		{"infinite event", func() error { return wr.Event(1, nudge(physics.Vec3{X: 1 / zero()})) }, "not finite"},
		{"event for another player", func() error { return wr.Event(1, game.Event{Kind: game.Nudge, Player: 1}) }, "nudge for player 1 of 1"},
		{"unknown event", func() error { return wr.Event(1, game.Event{Kind: 7}) }, "unknown event kind 7"},
		{"skip from another tick", func() error { return wr.Skip(0, 5) }, "skip from tick 0, but the coming tick is 1"},
		{"skip backwards", func() error { return wr.Skip(1, 0) }, "goes backwards"},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := wr.Skip(1, 1); err != nil {
		t.Fatalf("a skip to the same tick: %v", err)
	}
	for k := 0; k < MaxEventsPerTick; k++ {
		if err := wr.Event(1, nudge(physics.Vec3{})); err != nil {
			t.Fatal(err)
		}
	}
	if err := wr.Event(1, nudge(physics.Vec3{})); err == nil {
		t.Fatal("accepted 256 events for a tick")
	}
	if err := wr.Skip(1, 3); err == nil || !strings.Contains(err.Error(), "which has 255 events") {
		t.Fatalf("skip over a tick with events: %v", err)
	}
	// The refused calls changed nothing: the tick goes in as tick 1, with
	// its state, and the record replays.
	w2 := gametest.World()
	if err := w2.Restore(&init); err != nil {
		t.Fatal(err)
	}
	if err := gametest.Step(w2, game.Forward); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < MaxEventsPerTick; k++ {
		if err := w2.ApplyImpulse(0, physics.Vec3{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := gametest.Step(w2, 0); err != nil {
		t.Fatal(err)
	}
	if err := wr.Tick(1, one(0), w2.Hash(), w2.State()); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	rec := readOK(t, buf.Bytes())
	if rec.Len() != 2 || len(rec.Step(1).Events) != MaxEventsPerTick || rec.Step(1).Full == nil {
		t.Fatalf("%d steps", rec.Len())
	}
	if res, err := Replay(rec); err != nil || res.Divergence != nil || res.Ticks != 2 {
		t.Fatalf("replay: %+v, %v", res, err)
	}
}

func zero() float64 { return 0 }

func TestCloseRefusesAFinalStateWithTheWrongHash(t *testing.T) {
	w := gametest.World()
	var init physics.State
	w.Save(&init)
	var buf bytes.Buffer
	wr, err := NewWriter(&buf, Header{Scene: gametest.Scene.ID, Initial: init})
	if err != nil {
		t.Fatal(err)
	}
	if err := gametest.Step(w, 0); err != nil {
		t.Fatal(err)
	}
	if err := wr.Tick(0, one(0), 12345, w.State()); err != nil {
		t.Fatal(err)
	}
	if err := wr.Close(); err == nil || !strings.Contains(err.Error(), "not the 0000000000003039 given; not stored") {
		t.Fatalf("close: %v", err)
	}
	rec := readOK(t, buf.Bytes())
	if rec.Len() != 1 || rec.Step(0).Full != nil {
		t.Fatalf("steps %+v", rec.Unpack())
	}
}

func TestReadMemoryIsBounded(t *testing.T) {
	// The worst case for memory: chunks packed with 5-byte skips (about
	// 1.3 MiB of them).
	s := writeSession(t, session{nudgeAt: -1})
	offs := chunkOffsets(s.data)
	data := bytes.Clone(s.data[:offs[1]])
	tick := uint32(0)
	for c := 0; c < 4; c++ {
		const n = 1<<16 - 1
		p := le.AppendUint32(nil, tick)
		p = le.AppendUint32(p, tick+n)
		p = le.AppendUint16(p, n)
		for k := 0; k < n; k++ {
			tick++
			p = append(p, entrySkip)
			p = le.AppendUint32(p, tick)
		}
		data = append(data, chunkBytes(chunkSteps, p)...)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec, err := Read(bytes.NewReader(data), 0)
	runtime.ReadMemStats(&after)
	if err != nil || rec.Len() != 4*(1<<16-1) {
		t.Fatalf("%v", err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	// Read's fixed cost: its bufio.Reader, a chunk buffer of up to
	// MaxChunkLen plus its CRC, the header.
	const fixed = 4096 + MaxChunkLen + 4 + 64<<10
	t.Logf("%d bytes read, %d allocated (%.2f per byte, %.2f beyond the fixed %d)", len(data), alloc,
		float64(alloc)/float64(len(data)), float64(alloc-min(alloc, fixed))/float64(len(data)), fixed)
	if alloc > fixed+MaxAllocPerByte*uint64(len(data)) {
		t.Fatalf("%d bytes allocated for %d bytes of input, more than %d per byte beyond %d", alloc, len(data), MaxAllocPerByte, fixed)
	}
	if s := rec.Step(rec.Len() - 1); s.Kind != StepSkip || s.To != tick || s.Chunk != 4 {
		t.Fatalf("last step %+v, want a skip to %d in chunk 4", s, tick)
	}
}

// otherEngine returns a copy of rec (the preamble and the header chunk, at
// least) whose header says it was made by engine revision rev, its CRC
// made again.
func otherEngine(rec []byte, rev uint64) []byte {
	b := bytes.Clone(rec)
	head := b[preamble : preamble+frameHead]
	n := int(le.Uint32(head[1:]))
	payload := b[preamble+frameHead : preamble+frameHead+n]
	le.PutUint64(payload[engineOffset:], rev)
	le.PutUint32(b[preamble+frameHead+n:], payloadCRC(head, payload))
	return b
}
