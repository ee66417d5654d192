package record

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/game/gametest"
	"github.com/cubelab/cube/physics"
)

// session says how writeSession drives the canonical scene.
type session struct {
	ticks     int    // simulated ticks
	start     uint32 // tick of the initial state
	fullEvery uint32
	skips     bool // skip 7 ticks before every 200th simulated tick, from the 100th
	events    bool // one or two impulses before every 90th tick, from the 45th
	nudgeAt   int  // simulated tick index whose step starts from vel.z nudged by one ulp, unrecorded; -1: none
	stages    bool // record every tick's stage hashes (Header.Stages)
}

// written is what writeSession wrote and what it expects to read back.
type written struct {
	data  []byte
	steps []Step // Kind, Tick, To, Inputs, Events, Hash
	init  physics.State
}

// writeSession drives a server-like world and records it.
func writeSession(t testing.TB, s session) written {
	t.Helper()
	w := gametest.World()
	w.SkipTo(s.start)
	var out written
	w.Save(&out.init)
	w.HashStages(s.stages)
	var buf bytes.Buffer
	wr, err := NewWriter(&buf, Header{Scene: gametest.Scene.ID, FullEvery: s.fullEvery, Meta: `{"preset":"good","seed":1}`, Initial: out.init, Stages: s.stages})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < s.ticks; k++ {
		tick := w.Tick()
		if s.skips && k%200 == 100 {
			to := tick + 7
			must(wr.Skip(tick, to))
			w.SkipTo(to)
			out.steps = append(out.steps, Step{Kind: StepSkip, Tick: tick, To: to})
			tick = to
		}
		var events []game.Event
		if s.events && k%90 == 45 {
			events = append(events, nudge(physics.Vec3{X: 0.75, Y: 2.5, Z: -0.125}))
			if k%180 == 45 {
				events = append(events, nudge(physics.Vec3{X: -1, Y: 0, Z: 0.3}))
			}
		}
		for _, e := range events {
			must(wr.Event(tick, e))
			must(gametest.Scene.ApplyEvent(w, e))
		}
		if k == s.nudgeAt {
			var st physics.State
			w.Save(&st)
			v := &st.Bodies[0].Vel
			v.Z = math.Nextafter(v.Z, math.Inf(1))
			must(w.Restore(&st))
		}
		ins := []game.Input{gametest.Scripted(tick)}
		must(gametest.Scene.Step(w, ins))
		var sh *physics.StageHashes
		if s.stages {
			h := *w.StageHashes()
			h.Hashes = slices.Clone(h.Hashes)
			sh = &h
			must(wr.Stages(sh))
		}
		must(wr.Tick(tick, ins, w.Hash(), w.State()))
		out.steps = append(out.steps, Step{Kind: StepTick, Tick: tick, Inputs: ins, Events: events, Hash: w.Hash(), Stages: sh})
	}
	must(wr.Close())
	out.data = buf.Bytes()
	return out
}

// sameStep reports how a differs from b, "" if it does not. Full states are
// compared only when both have one.
func sameStep(a, b *Step) string {
	if a.Kind != b.Kind || a.Tick != b.Tick || a.To != b.To || !slices.Equal(a.Inputs, b.Inputs) || a.Hash != b.Hash {
		return fmt.Sprintf("%v tick %d to %d inputs %v hash %016x != %v tick %d to %d inputs %v hash %016x",
			a.Kind, a.Tick, a.To, a.Inputs, a.Hash, b.Kind, b.Tick, b.To, b.Inputs, b.Hash)
	}
	if len(a.Events) != len(b.Events) {
		return fmt.Sprintf("tick %d: %d events != %d", a.Tick, len(a.Events), len(b.Events))
	}
	for i := range a.Events {
		x, y := a.Events[i].Impulse, b.Events[i].Impulse
		if a.Events[i].Kind != b.Events[i].Kind || a.Events[i].Player != b.Events[i].Player ||
			math.Float64bits(x.X) != math.Float64bits(y.X) || math.Float64bits(x.Y) != math.Float64bits(y.Y) || math.Float64bits(x.Z) != math.Float64bits(y.Z) {
			return fmt.Sprintf("tick %d: event %d %v != %v", a.Tick, i, x, y)
		}
	}
	if (a.Stages == nil) != (b.Stages == nil) || a.Stages != nil && a.Stages.Tick != b.Stages.Tick ||
		a.Stages != nil && (a.Stages.Path != b.Stages.Path || !slices.Equal(a.Stages.Hashes, b.Stages.Hashes)) {
		return fmt.Sprintf("tick %d: stage hashes %+v != %+v", a.Tick, a.Stages, b.Stages)
	}
	if a.Full != nil && b.Full != nil && !a.Full.Equal(b.Full) {
		return fmt.Sprintf("tick %d: full states differ", a.Tick)
	}
	return ""
}

// nudge is a nudge event on player 0.
func nudge(v physics.Vec3) game.Event { return game.Event{Kind: game.Nudge, Impulse: v} }

// readOK reads data and fails unless it is a complete record.
func readOK(t testing.TB, data []byte) *Record {
	t.Helper()
	rec, err := Read(bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Truncated {
		t.Fatalf("complete record read as truncated: %s", rec.TruncatedWhy)
	}
	return rec
}

// encode writes rec again through a Writer: full states where rec has them,
// so that the stored ones (and the final one) stay where they were.
func encode(t testing.TB, rec *Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	wr, err := NewWriter(&buf, rec.Header)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rec.Len() {
		s := ptr(rec.Step(i))
		if s.Kind == StepSkip {
			err = wr.Skip(s.Tick, s.To)
		} else {
			for _, e := range s.Events {
				if err := wr.Event(s.Tick, e); err != nil {
					t.Fatal(err)
				}
			}
			err = wr.Tick(s.Tick, s.Inputs, s.Hash, s.Full)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// chunkOffsets returns the offset of every chunk in a valid record.
func chunkOffsets(data []byte) []int {
	var offs []int
	for off := preamble; off+frameHead <= len(data); {
		offs = append(offs, off)
		off += frameHead + int(le.Uint32(data[off+1:])) + frameTail
	}
	return offs
}

// one is the inputs of a tick for the arena's one player.
func one(in game.Input) []game.Input { return []game.Input{in} }

// unpacked reads data, a complete record, into a record built from its
// unpacked steps, which a test may edit (r.built).
func unpacked(t testing.TB, data []byte) *Record {
	t.Helper()
	r := readOK(t, data)
	return NewRecord(r.Header, r.Unpack())
}

// ptr returns a pointer to a copy of s.
func ptr(s Step) *Step { return &s }
