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
	f, err := Session(path, 16, s)
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
	if _, err := Session(filepath.Join(t.TempDir(), "no", "s.rec"), 16, s); err == nil {
		t.Error("a record in a folder that does not exist was created")
	}
}
