package recording

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/session"
)

// TestASessionsRecordHoldsItsSettings: the record starts from the
// server's state with the session's settings as metadata, holds the steps
// the server took while attached, and replays to the same bits; a nil
// File closes as nothing, and a path that cannot be created is an error.
func TestASessionsRecordHoldsItsSettings(t *testing.T) {
	cfg := session.DefaultConfig()
	cfg.Seed = 7
	s, err := session.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.rec")
	f, err := Session(path, Options{FullEvery: 16}, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 64; i++ {
		if err := s.Tick(0); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rec, err := record.Read(in, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Header.Meta, `"seed":7`) || !strings.Contains(rec.Header.Meta, `"server":"clocked"`) || rec.Header.FullEvery != 16 || rec.Len() == 0 {
		t.Errorf("meta %s, full every %d, %d steps", rec.Header.Meta, rec.Header.FullEvery, rec.Len())
	}
	res, err := record.Replay(rec)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if res.Divergence != nil {
		t.Errorf("replay: divergence %v", res.Divergence)
	}
	var none *File
	if err := none.Close(); err != nil {
		t.Errorf("nil File: %v", err)
	}
	if _, err := Session(filepath.Join(t.TempDir(), "no", "s.rec"), Options{FullEvery: 16}, s); err == nil {
		t.Error("a record in a folder that does not exist was created")
	}
}

// TestStagesRecordTheServersSteps: with Options.Stages, every tick the
// server simulated while attached carries its step's stage hashes, the
// session's bits are those of one recorded without them, the record
// replays, and Close stops the hashing.
func TestStagesRecordTheServersSteps(t *testing.T) {
	run := func(o Options) (*record.Record, uint64, *session.Session) {
		s, err := session.New(session.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "s.rec")
		f, err := Session(path, o, s)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 100; i++ {
			if err := s.Tick(0); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		in, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		rec, err := record.Read(in, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		return rec, s.Server.World().Hash(), s
	}
	plain, want, _ := run(Options{FullEvery: 16})
	rec, got, s := run(Options{FullEvery: 16, Stages: true})
	if got != want || plain.Header.Stages || !rec.Header.Stages {
		t.Fatalf("hash %016x, without stages %016x; headers say stages %v and %v", got, want, plain.Header.Stages, rec.Header.Stages)
	}
	ticks := 0
	for i := range rec.Len() {
		st := rec.Step(i)
		if st.Kind != record.StepTick {
			continue
		}
		ticks++
		if st.Stages == nil || st.Stages.Tick != st.Tick || len(st.Stages.Hashes) < 6 {
			t.Fatalf("tick %d: stage hashes %+v", st.Tick, st.Stages)
		}
	}
	if res, err := record.Replay(rec); err != nil || res.Divergence != nil || res.Ticks != ticks || ticks == 0 {
		t.Fatalf("replay: %+v, %v (%d ticks)", res, err, ticks)
	}
	if s.Server.World().StageHashes() != nil {
		t.Fatal("the server's world still hashes its stages after Close")
	}
}
