package record

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/cubelab/cube/game/gametest"
	"github.com/cubelab/cube/physics"
)

func TestRoundTripReplaysOK(t *testing.T) {
	s := writeSession(t, session{ticks: 1000, fullEvery: 64, skips: true, events: true, nudgeAt: -1})
	rec := readOK(t, s.data)
	if rec.Header.Physics != physics.DefaultConfig() || rec.Header.FullEvery != 64 || rec.Header.Meta != `{"preset":"good","seed":1}` {
		t.Fatalf("header read back as %+v", rec.Header)
	}
	if !rec.Header.Initial.Equal(&s.init) {
		t.Fatal("initial state differs")
	}
	if rec.Len() != len(s.steps) {
		t.Fatalf("read %d steps, wrote %d", rec.Len(), len(s.steps))
	}
	fulls, events := 0, 0
	for i := range rec.Len() {
		if d := sameStep(ptr(rec.Step(i)), &s.steps[i]); d != "" {
			t.Fatalf("step %d: %s", i, d)
		}
		if want := 1 + i/ChunkSteps; rec.Step(i).Chunk != want {
			t.Fatalf("step %d in chunk %d, want %d", i, rec.Step(i).Chunk, want)
		}
		if rec.Step(i).Full != nil {
			fulls++
		}
		events += len(rec.Step(i).Events)
	}
	// 1000/64 = 15 stored every 64 ticks, plus the final one in the end marker.
	if fulls != 16 || rec.Step(rec.Len()-1).Full == nil {
		t.Fatalf("%d full states, want 16 with the last step's", fulls)
	}
	if events != 17 {
		t.Fatalf("%d events, want 17", events)
	}
	// Header, ceil(1005/64) = 16 step chunks, end marker.
	if rec.Chunks != 18 {
		t.Fatalf("%d chunks, want 18", rec.Chunks)
	}
	res, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.Divergence != nil || res.Ticks != 1000 || res.Skipped != 35 {
		t.Fatalf("replay: %+v", res)
	}
	var out bytes.Buffer
	res.Report(&out)
	if out.String() != "ok 1000 server ticks re-simulated (35 of them skipped), every state as recorded\n" {
		t.Fatalf("report %q", out.String())
	}
}

func TestTicksWrapAround(t *testing.T) {
	s := writeSession(t, session{ticks: 600, start: math.MaxUint32 - 299, fullEvery: 50, skips: true, nudgeAt: -1})
	rec := readOK(t, s.data)
	if n := rec.Len(); rec.Step(n-1).Tick >= rec.Step(0).Tick {
		t.Fatalf("the session did not wrap: ticks %d to %d", rec.Step(0).Tick, rec.Step(n-1).Tick)
	}
	res, err := Replay(rec)
	if err != nil || res.Divergence != nil || res.Ticks != 600 || res.Skipped != 21 {
		t.Fatalf("replay: %+v, %v", res, err)
	}
}

func TestReportOKWithoutSkips(t *testing.T) {
	rec := readOK(t, writeSession(t, session{ticks: 70, nudgeAt: -1}).data)
	res, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res.Report(&out)
	if out.String() != "ok 70 server ticks re-simulated, every state as recorded\n" {
		t.Fatalf("report %q", out.String())
	}
}

func TestEmptySession(t *testing.T) {
	rec := readOK(t, writeSession(t, session{nudgeAt: -1}).data)
	if rec.Len() != 0 || rec.Chunks != 2 {
		t.Fatalf("%d steps in %d chunks", rec.Len(), rec.Chunks)
	}
	res, err := Replay(rec)
	if err != nil || res.Ticks != 0 || res.Divergence != nil {
		t.Fatalf("replay: %+v, %v", res, err)
	}
}

func TestCrashLosesOnlyTheOpenChunk(t *testing.T) {
	w := gametest.World()
	var init physics.State
	w.Save(&init)
	var buf bytes.Buffer
	wr, err := NewWriter(&buf, Header{Scene: gametest.Scene.ID, Initial: init})
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 150; k++ {
		in := gametest.Scripted(w.Tick())
		tick := w.Tick()
		if err := gametest.Step(w, in); err != nil {
			t.Fatal(err)
		}
		if err := wr.Tick(tick, one(in), w.Hash(), w.State()); err != nil {
			t.Fatal(err)
		}
		if k == 139 {
			if err := wr.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// No Close: the process "crashed". Chunks of 64, 64 and 12 ticks were
	// written; the last 10 ticks were in the open chunk.
	rec, err := Read(bytes.NewReader(buf.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Truncated || rec.Len() != 140 || rec.Chunks != 4 {
		t.Fatalf("truncated %v (%s), %d steps, %d chunks", rec.Truncated, rec.TruncatedWhy, rec.Len(), rec.Chunks)
	}
	if !strings.Contains(rec.TruncatedWhy, "after chunk 3, at tick 140, without an end marker") {
		t.Fatalf("why: %s", rec.TruncatedWhy)
	}
	res, err := Replay(rec)
	if err != nil || res.Ticks != 140 || res.Divergence != nil {
		t.Fatalf("replay: %+v, %v", res, err)
	}
}
