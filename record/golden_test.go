package record

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/session.rec")

// goldenPath holds a record made by an amd64 build. Replaying it under
// another CPU (GOARCH=arm64 go test -exec qemu-aarch64 -run Golden
// ./record/) checks that a record crosses machines; writing the same session
// again must give the same bytes on every CPU.
var goldenPath = filepath.Join("testdata", "session.rec")

func TestGoldenRecord(t *testing.T) {
	s := writeSession(t, session{ticks: 1000, fullEvery: 64, skips: true, events: true, nudgeAt: -1})
	if *update {
		if err := os.WriteFile(goldenPath, s.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	rec := readOK(t, golden)
	res, err := Replay(rec)
	if err != nil || res.Divergence != nil || res.Ticks != 1000 || res.Skipped != 35 {
		var out bytes.Buffer
		res.Report(&out)
		t.Fatalf("replaying %s: %v\n%s", goldenPath, err, out.String())
	}
	if !bytes.Equal(s.data, golden) {
		t.Fatalf("the same session written here differs from %s (%d bytes, here %d)", goldenPath, len(golden), len(s.data))
	}
}

// stagesGoldenPath holds a record with stage hashes made by an amd64
// build: under another CPU (GOARCH=arm64 go test -exec qemu-aarch64 -run
// Golden ./record/), every tick's stage hashes, not only its state, come
// out as recorded.
var stagesGoldenPath = filepath.Join("testdata", "stages.rec")

func TestGoldenStagesRecord(t *testing.T) {
	s := writeSession(t, session{ticks: 150, fullEvery: 64, skips: true, events: true, nudgeAt: -1, stages: true})
	if *update {
		if err := os.WriteFile(stagesGoldenPath, s.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(stagesGoldenPath)
	if err != nil {
		t.Fatal(err)
	}
	rec := readOK(t, golden)
	if res, err := Replay(rec); err != nil || res.Divergence != nil || res.Ticks != 150 {
		t.Fatalf("replaying %s: %+v, %v", stagesGoldenPath, res, err)
	}
	w, sc, bd, err := Build(&rec.Header)
	if err != nil {
		t.Fatal(err)
	}
	w.HashStages(true)
	checked := 0
	for i := range rec.Len() {
		st := rec.Step(i)
		if _, err := apply(w, sc, bd, &st); err != nil {
			t.Fatal(err)
		}
		if st.Kind != StepTick {
			continue
		}
		got, want := w.StageHashes(), st.Stages
		if got.Path != want.Path || !slices.Equal(got.Hashes, want.Hashes) {
			t.Fatalf("tick %d: stage hashes %x (path %x), recorded %x (path %x)", st.Tick, got.Hashes, got.Path, want.Hashes, want.Path)
		}
		checked += len(want.Hashes)
	}
	if !bytes.Equal(s.data, golden) {
		t.Fatalf("the same session written here differs from %s (%d bytes, here %d)", stagesGoldenPath, len(golden), len(s.data))
	}
	t.Logf("%d stage hashes as recorded, %d bytes", checked, len(golden))
}
