package record

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
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
