package record

import (
	"bytes"
	"strings"
	"testing"
)

// fuzzLimit is the size limit the fuzzers read with.
const fuzzLimit = 1 << 20

// checkRecord fails unless rec keeps the format's invariants and bounds.
func checkRecord(t *testing.T, rec *Record, n int) {
	t.Helper()
	if rec.Len() > n/minEntryLen {
		t.Fatalf("%d steps from %d bytes", rec.Len(), n)
	}
	if rec.Chunks < 1 || rec.Chunks > n/(frameHead+frameTail) {
		t.Fatalf("%d chunks from %d bytes", rec.Chunks, n)
	}
	tick := rec.Header.Initial.Tick
	for i := range rec.Len() {
		s := ptr(rec.Step(i))
		if s.Tick != tick || s.Chunk < 1 || s.Chunk >= rec.Chunks || len(s.Events) > MaxEventsPerTick {
			t.Fatalf("step %d: %+v, want tick %d", i, s, tick)
		}
		switch s.Kind {
		case StepTick:
			if h := s.Stages; h != nil && (!rec.Header.Stages || h.Tick != s.Tick || len(h.Hashes) == 0 || len(h.Hashes) > MaxStages) {
				t.Fatalf("step %d: stage hashes %+v do not fit", i, h)
			}
			tick++
			if s.Full != nil && (s.Full.Tick != tick || s.Full.Hash() != s.Hash || len(s.Full.Bodies) != len(rec.Header.Initial.Bodies)) {
				t.Fatalf("step %d: full state does not fit", i)
			}
		case StepSkip:
			if d := s.To - s.Tick; d == 0 || d >= MaxSkip {
				t.Fatalf("step %d: skip %d to %d", i, s.Tick, s.To)
			}
			tick = s.To
		default:
			t.Fatalf("step %d: kind %v", i, s.Kind)
		}
	}
}

func FuzzRead(f *testing.F) {
	s := writeSession(f, session{ticks: 90, fullEvery: 16, skips: true, events: true, nudgeAt: -1})
	f.Add(s.data)
	f.Add(s.data[:len(s.data)/2])
	f.Add(s.data[:chunkOffsets(s.data)[1]])
	f.Add(writeSession(f, session{nudgeAt: -1}).data)
	f.Add(writeSession(f, session{ticks: 20, fullEvery: 8, events: true, nudgeAt: -1, stages: true}).data)
	f.Add([]byte{})
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := Read(bytes.NewReader(b), fuzzLimit)
		if err != nil {
			if rec != nil {
				t.Fatal("a record with an error")
			}
			return
		}
		checkRecord(t, rec, len(b))
		replayChecked(t, rec)
	})
}

// FuzzStepsChunk fuzzes the payload of a steps chunk behind a valid header,
// with a valid CRC, so that the fuzzer reaches the entry parser.
func FuzzStepsChunk(f *testing.F) {
	fuzzSteps(f, session{ticks: 40, fullEvery: 8, skips: true, events: true, nudgeAt: -1})
}

// FuzzStagesChunk is FuzzStepsChunk behind the header of a record with
// stage hashes (version 4), seeded with steps chunks that hold them.
func FuzzStagesChunk(f *testing.F) {
	fuzzSteps(f, session{ticks: 24, fullEvery: 8, skips: true, events: true, nudgeAt: -1, stages: true})
	p := []byte{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, entryTick | flagStages, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0}
	p = append(p, make([]byte, 16)...)
	f.Add(p, true)
}

// fuzzSteps runs the steps chunk fuzzer behind the header of the record
// s writes, seeded with its steps chunks.
func fuzzSteps(f *testing.F, ss session) {
	s := writeSession(f, ss)
	offs := chunkOffsets(s.data)
	header := s.data[:offs[1]]
	for k := 1; k < len(offs)-1; k++ {
		n := int(le.Uint32(s.data[offs[k]+1:]))
		f.Add(s.data[offs[k]+frameHead:offs[k]+frameHead+n], false)
	}
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, entryTick, 0, 1, 2, 3, 4, 5, 6, 7, 8}, true)
	f.Add([]byte{0, 0, 0, 0, 9, 0, 0, 0, 1, 0, entrySkip, 9, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, payload []byte, end bool) {
		if len(payload) > MaxChunkLen {
			return
		}
		data := append(bytes.Clone(header), chunkBytes(chunkSteps, payload)...)
		rec, err := Read(bytes.NewReader(data), fuzzLimit)
		if err != nil {
			return
		}
		checkRecord(t, rec, len(data))
		if end {
			// Close it properly: the end marker must agree.
			var p []byte
			p = le.AppendUint64(p, uint64(rec.Len()))
			ticks := 0
			for i := range rec.Len() {
				if rec.Step(i).Kind == StepTick {
					ticks++
				}
			}
			p = le.AppendUint64(p, uint64(ticks))
			tick := rec.Header.Initial.Tick
			if n := rec.Len(); n > 0 {
				last := rec.Step(n - 1)
				tick = last.Tick + 1
				if last.Kind == StepSkip {
					tick = last.To
				}
			}
			p = le.AppendUint32(p, tick)
			data = append(data, chunkBytes(chunkEnd, p)...)
			full, err := Read(bytes.NewReader(data), fuzzLimit)
			if err != nil || full.Truncated || full.Len() != rec.Len() {
				t.Fatalf("with an end marker: %v", err)
			}
		}
		replayChecked(t, rec)
	})
}

// replayChecked replays rec: whatever reads replays, or is refused with an
// error that says it was the replay, without panicking; a replay never
// matches more ticks than the record has steps.
func replayChecked(t *testing.T, rec *Record) {
	t.Helper()
	res, err := Replay(rec)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "record: replay") {
			t.Fatalf("a replay error without its context: %v", err)
		}
		return
	}
	if res.Ticks > rec.Len() {
		t.Fatalf("%d ticks matched in a record of %d steps", res.Ticks, rec.Len())
	}
}
