package record

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestStagesRoundTrip: a record with stage hashes is of version 4 and
// gives back, tick by tick, the stage hashes its world gave; one without
// them stays version 3; both replay to the end.
func TestStagesRoundTrip(t *testing.T) {
	for _, stages := range []bool{false, true} {
		s := writeSession(t, session{ticks: 300, fullEvery: 64, skips: true, events: true, nudgeAt: -1, stages: stages})
		want := uint32(3)
		if stages {
			want = 4
		}
		if v := le.Uint32(s.data[len(Magic):]); v != want {
			t.Fatalf("stages %v: version %d, want %d", stages, v, want)
		}
		rec := readOK(t, s.data)
		if rec.Header.Stages != stages || rec.Len() != len(s.steps) {
			t.Fatalf("stages %v: header says %v, %d steps", stages, rec.Header.Stages, rec.Len())
		}
		with := 0
		for i := range rec.Len() {
			st := rec.Step(i)
			if d := sameStep(&st, &s.steps[i]); d != "" {
				t.Fatalf("step %d: %s", i, d)
			}
			if st.Stages != nil {
				with++
			}
		}
		if stages && with != 300 || !stages && with != 0 {
			t.Fatalf("stages %v: %d ticks with stage hashes", stages, with)
		}
		if res, err := Replay(rec); err != nil || res.Divergence != nil || res.Ticks != 300 {
			t.Fatalf("stages %v: replay %+v, %v", stages, res, err)
		}
	}
}

// TestStagesNameTheDivergentStage: a record whose step 150 started from a
// velocity one ulp off diverges there, and the replay names the first
// stage, activate, by itself; the record's hash of a stage in the middle of
// the step changed (with its tick's hash) makes it name that stage, as
// the trace calls it; a state changed between steps (perturbed) leaves
// every stage as recorded; a record without stage hashes has no stage
// report.
func TestStagesNameTheDivergentStage(t *testing.T) {
	s := writeSession(t, session{ticks: 200, fullEvery: 64, nudgeAt: 50, stages: true})
	rec := readOK(t, s.data)
	res, err := Replay(rec)
	if err != nil || res.Divergence == nil || res.Divergence.Tick != s.steps[50].Tick+1 {
		t.Fatalf("replay %+v, %v", res, err)
	}
	d := res.Divergence.Stage
	if !d.Found() || d.Stage != 0 || d.Name != "activate" || d.Tick != s.steps[50].Tick || d.Stages != d.RecordedStages || d.OtherPath {
		t.Fatalf("stage report %+v, want stage 0, activate, at tick %d", d, s.steps[50].Tick)
	}
	var out bytes.Buffer
	res.Report(&out)
	if !strings.Contains(out.String(), "stage hashes: tick 50's step first differs at stage 0 of") || !strings.Contains(out.String(), "cube replay -trace 50 -o A.stg FILE") {
		t.Fatalf("report:\n%s", out.String())
	}

	clean := readOK(t, writeSession(t, session{ticks: 200, fullEvery: 64, nudgeAt: -1, stages: true}).data)
	steps := clean.Unpack()
	tr, err := TraceTick(clean, steps[120].Tick)
	if err != nil {
		t.Fatal(err)
	}
	k := len(tr.Stages) / 2
	h := *steps[120].Stages
	h.Hashes = append([]uint64(nil), h.Hashes...)
	h.Hashes[k]++
	steps[120].Stages = &h
	steps[120].Hash++
	res, err = Replay(NewRecord(clean.Header, steps))
	if err != nil || res.Divergence == nil {
		t.Fatalf("replay %+v, %v", res, err)
	}
	if d := res.Divergence.Stage; !d.Found() || d.Stage != k || d.Name != tr.Stages[k].Name || d.Differ != 1 || d.RecordedHash != d.Hash+1 {
		t.Fatalf("stage report %+v, want stage %d (%s)", d, k, tr.Stages[k].Name)
	}

	var cp bytes.Buffer
	p, err := ParsePerturbation("120:0:vel.x:3")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Perturb(clean, p, &cp); err != nil {
		t.Fatal(err)
	}
	res, err = Replay(readOK(t, cp.Bytes()))
	if err != nil || res.Divergence == nil {
		t.Fatalf("replay of the perturbed copy: %+v, %v", res, err)
	}
	if d := res.Divergence.Stage; d == nil || d.Found() || d.Why != "" || !strings.Contains(strings.Join(d.Lines("F"), "\n"), "agree with the record") {
		t.Fatalf("perturbed copy: stage report %+v", d)
	}

	plain := readOK(t, writeSession(t, session{ticks: 200, fullEvery: 64, nudgeAt: 50}).data)
	if res, _ := Replay(plain); res.Divergence == nil || res.Divergence.Stage != nil {
		t.Fatalf("a record without stage hashes: %+v", res.Divergence)
	}
}

// TestStagesRefused: the writer refuses stage hashes a record cannot
// hold, and the reader stage hashes that break the format.
func TestStagesRefused(t *testing.T) {
	s := writeSession(t, session{ticks: 3, nudgeAt: -1, stages: true})
	rec := readOK(t, s.data)
	var buf bytes.Buffer
	h := rec.Header
	h.Stages = false
	wr, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	st := rec.Step(0)
	if err := wr.Stages(st.Stages); err == nil {
		t.Fatal("stage hashes taken for a header without Stages")
	}
	wr, _ = NewWriter(&buf, rec.Header)
	bad := *st.Stages
	bad.Tick++
	if err := wr.Stages(&bad); err == nil {
		t.Fatal("stage hashes of another tick taken")
	}
	bad.Tick, bad.Hashes = st.Tick, nil
	if err := wr.Stages(&bad); err == nil {
		t.Fatal("no stage hashes taken")
	}
	bad.Hashes = make([]uint64, MaxStages+1)
	if err := wr.Stages(&bad); err == nil {
		t.Fatal("too many stage hashes taken")
	}

	// The payload of the first steps chunk, its first entry's stage count
	// (after kind, one input and the hash) changed.
	offs := chunkOffsets(s.data)
	payload := bytes.Clone(s.data[offs[1]+frameHead : offs[1]+frameHead+int(le.Uint32(s.data[offs[1]+1:]))])
	at := stepsHeadLen + 1 + 1 + 8
	if payload[stepsHeadLen]&flagStages == 0 {
		t.Fatalf("the first entry's kind %#x has no stage hashes", payload[stepsHeadLen])
	}
	for _, c := range []struct {
		name  string
		count uint16
		kind  byte
		v3    bool
		want  string
	}{
		{"no hashes", 0, 0, false, "0 stage hashes"},
		{"more than the payload", 4000, 0, false, "4000 stage hashes"},
		{"more than MaxStages", MaxStages + 1, 0, false, "16385 stage hashes"},
		{"in version 3", 0, 0, true, "unknown kind 0x41"},
	} {
		p := bytes.Clone(payload)
		if !c.v3 {
			le.PutUint16(p[at:], c.count)
		}
		hdr := bytes.Clone(s.data[:offs[1]])
		if c.v3 {
			le.PutUint32(hdr[len(Magic):], 3)
		}
		_, err := Read(bytes.NewReader(append(hdr, chunkBytes(chunkSteps, p)...)), 0)
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want malformed and %q", c.name, err, c.want)
		}
	}
}
