package record

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
)

// replayDiverges reads data, replays it and returns the divergence and the
// report, failing unless there is one.
func replayDiverges(t *testing.T, data []byte) (Result, string) {
	t.Helper()
	res, err := Replay(readOK(t, data))
	if err != nil {
		t.Fatal(err)
	}
	if res.Divergence == nil {
		t.Fatalf("no divergence: %+v", res)
	}
	var out bytes.Buffer
	res.Report(&out)
	return res, out.String()
}

// tickStep returns the index of the tick step for tick.
func tickStep(t *testing.T, rec *Record, tick uint32) int {
	t.Helper()
	for i := range rec.Len() {
		if rec.Step(i).Kind == StepTick && rec.Step(i).Tick == tick {
			return i
		}
	}
	t.Fatalf("no tick step for tick %d", tick)
	return 0
}

func TestTamperedInputDivergesAtThatTick(t *testing.T) {
	s := writeSession(t, session{ticks: 400, fullEvery: 32, events: true, nudgeAt: -1})
	rec := unpacked(t, s.data)
	// Tick 100 is pushed forward (towards the wall); record it as pushed back.
	i := tickStep(t, rec, 100)
	if rec.Step(i).Inputs[0] != game.Forward || rec.Step(i).Full != nil {
		t.Fatalf("step for tick 100: input %v, full %v", rec.Step(i).Inputs, rec.Step(i).Full != nil)
	}
	rec.built[i].Inputs = one(game.Back)
	res, report := replayDiverges(t, encode(t, rec))
	d := res.Divergence
	if d.Tick != 101 || d.Inputs[0] != game.Back || res.Ticks != 100 || d.Chunk != 2 {
		t.Fatalf("divergence at tick %d, input %v, chunk %d, after %d ticks; want tick 101, S, chunk 2, 100", d.Tick, d.Inputs, d.Chunk, res.Ticks)
	}
	if !d.Compared || d.DiffTick != 128 || len(d.Diff) == 0 {
		t.Fatalf("diff at %d (compared %v): %v", d.DiffTick, d.Compared, d.Diff)
	}
	found := false
	for _, f := range d.Diff {
		if f.Where == "body 0" && f.Field == "vel.z" {
			found = true
		}
		if f.Where != "body 0" && f.Where != "contacts" && !strings.HasPrefix(f.Where, "contact ") {
			t.Errorf("a static body differs: %v", f)
		}
	}
	if !found {
		t.Fatalf("diff does not name body 0 vel.z: %v", d.Diff)
	}
	for _, want := range []string{
		"diverged at tick 101 (chunk 2) after 100 matching ticks: the state after tick 100 (input S)",
		"first divergence at tick 101 (hash); field diff at the next stored full state, tick 128\n",
		" differ at tick 128 (recorded != replayed):\n",
		"  body 0 vel.z: ",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

func TestTamperedHashDivergesAtThatTick(t *testing.T) {
	s := writeSession(t, session{ticks: 300, fullEvery: 64, skips: true, nudgeAt: -1})
	rec := unpacked(t, s.data)
	i := tickStep(t, rec, 170)
	rec.built[i].Hash ^= 1 << 40
	res, report := replayDiverges(t, encode(t, rec))
	d := res.Divergence
	if d.Tick != 171 || d.Recorded != rec.Step(i).Hash || d.Replayed != rec.Step(i).Hash^1<<40 {
		t.Fatalf("divergence %+v", d)
	}
	// The simulation itself matches: the next stored full state is equal.
	if !d.Compared || len(d.Diff) != 0 || !strings.Contains(d.Note, "equals the replayed one") {
		t.Fatalf("diff %v, note %q", d.Diff, d.Note)
	}
	if !strings.Contains(report, "diverged at tick 171 ") {
		t.Fatalf("report:\n%s", report)
	}
}

func TestNudgedVelocityDivergesAtTheNextHash(t *testing.T) {
	for _, tc := range []struct {
		name     string
		k        int    // simulated tick index nudged (no skips: also the tick)
		diffTick uint32 // where the diff is taken
		note     string
	}{
		{"full state stored later", 40, 64, "field diff at the next stored full state, tick 64"},
		{"full state stored there", 63, 64, "field diff there, against its stored full state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The cube slides towards the wall at about 6 m/s.
			s := writeSession(t, session{ticks: 200, fullEvery: 32, nudgeAt: tc.k})
			res, report := replayDiverges(t, s.data)
			d := res.Divergence
			if d.Tick != uint32(tc.k)+1 || res.Ticks != tc.k {
				t.Fatalf("divergence at tick %d after %d ticks, want %d after %d", d.Tick, res.Ticks, tc.k+1, tc.k)
			}
			if d.DiffTick != tc.diffTick || !strings.Contains(d.Note, tc.note) {
				t.Fatalf("diff at %d, note %q", d.DiffTick, d.Note)
			}
			vel := false
			for _, f := range d.Diff {
				if f.Where == "body 0" && strings.HasPrefix(f.Field, "vel.") {
					vel = true
				}
			}
			if !vel {
				t.Fatalf("no vel.* field in the diff:\n%s", report)
			}
			t.Logf("\n%s", report)
		})
	}
}

func TestDivergenceWithoutLaterFullState(t *testing.T) {
	// With full states every 1000 ticks, only the final state is stored; a
	// record cut short loses it, so there is nothing to diff against.
	s := writeSession(t, session{ticks: 130, fullEvery: 1000, nudgeAt: 20})
	offs := chunkOffsets(s.data)
	rec, err := Read(bytes.NewReader(s.data[:offs[len(offs)-1]]), 0)
	if err != nil || !rec.Truncated {
		t.Fatalf("%v, truncated %v", err, rec != nil && rec.Truncated)
	}
	res, err := Replay(rec)
	if err != nil || res.Divergence == nil {
		t.Fatalf("%+v, %v", res, err)
	}
	if d := res.Divergence; d.Tick != 21 || d.Compared || !strings.Contains(d.Note, "no field diff") {
		t.Fatalf("divergence %+v", d)
	}
}

func TestReplayRefusesCorruptRecords(t *testing.T) {
	s := writeSession(t, session{ticks: 100, fullEvery: 10, nudgeAt: -1})
	for _, tc := range []struct {
		name string
		edit func(r *Record)
		want string
	}{
		{"full state does not hash to its hash", func(r *Record) { r.built[9].Full.Bodies[0].Pos.X += 1e-9 }, "does not hash to its recorded hash"},
		{"initial state does not fit", func(r *Record) { r.Header.Initial.Bodies = r.Header.Initial.Bodies[:3] }, "initial state does not fit the scene"},
		{"bad configuration", func(r *Record) { r.Header.Physics.Iterations = 0 }, "cannot build"},
		{"another configuration", func(r *Record) { r.Header.Physics.Iterations = 5 }, "another version of the scene"},
		{"another scene", func(r *Record) { r.Header.Scene.Name = "moon" }, "scene \"moon\", which this program does not have"},
		{"another rule", func(r *Record) { r.Header.Scene.Rule = 0 }, "input rule 0, this program has rule 1"},
		{"another layout", func(r *Record) { r.Header.Scene.Hash ^= 1 }, "another version of the scene"},
		{"steps out of order", func(r *Record) { r.built[5].Tick++ }, "a step for tick 6, but the world is at tick 5"},
		{"input with extra bits", func(r *Record) { r.built[3].Inputs[0] |= 0x80 }, "bits outside"},
		{"backward skip", func(r *Record) { r.built[4] = Step{Kind: StepSkip, Tick: 4, To: 3, Chunk: 1} }, "does not go forwards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := unpacked(t, s.data)
			tc.edit(rec)
			_, err := Replay(rec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Replay(nil); err == nil {
		t.Fatal("replayed a nil record")
	}
}

func TestReadRefusesFullStateWithWrongHash(t *testing.T) {
	// A writer bug, not damage: the CRC is right, the stored state is not
	// the hashed one. Patch the hash field of a tick that stores its state
	// and fix the CRC.
	s := writeSession(t, session{ticks: 20, fullEvery: 10, nudgeAt: -1})
	offs := chunkOffsets(s.data)
	data := bytes.Clone(s.data)
	p := data[offs[1]+frameHead:]
	p = p[stepsHeadLen:]
	for k := 0; k < 9; k++ { // nine plain tick entries, then the one with a state
		p = p[tickEntryFixed+1:]
	}
	if p[0] != entryTick|flagFull {
		t.Fatalf("entry kind %#x", p[0])
	}
	p[2] ^= 1
	refreshCRC(data, offs[1])
	_, err := Read(bytes.NewReader(data), 0)
	if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "record: chunk 1 (ticks 0-19): malformed: tick 9: full state hashes to") {
		t.Fatalf("err %v", err)
	}
}

// refreshCRC recomputes the CRC of the chunk at off after an edit of its
// payload.
func refreshCRC(data []byte, off int) {
	n := int(le.Uint32(data[off+1:]))
	le.PutUint32(data[off+frameHead+n:], payloadCRC(data[off:], data[off+frameHead:off+frameHead+n]))
}
