package window

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/session"
	"github.com/cubelab/cube/session/recording"
	"github.com/cubelab/cube/ui/lab"
)

// TestTheRecordEndsAtTheReset: the demo's record holds the session up to
// a reset, says so on stdout, and the window's end then adds nothing; a
// record that ran to the end says where it was written.
func TestTheRecordEndsAtTheReset(t *testing.T) {
	for _, reset := range []bool{true, false} {
		l, err := lab.New(session.DefaultConfig(), true, 0)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "w.rec")
		var out, errs strings.Builder
		end, err := Record(l, path, recording.Options{FullEvery: 64}, &out, &errs)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 64; i++ {
			if err := l.Frame(1.0 / 64); err != nil {
				t.Fatal(err)
			}
		}
		want := "record written to " + path + "\n"
		if reset {
			if err := l.Act(lab.ActReset); err != nil {
				t.Fatal(err)
			}
			want = "record " + path + " ended at the reset\n"
		}
		end()
		if out.String() != want || errs.Len() != 0 {
			t.Errorf("reset %v: stdout %q, stderr %q; want stdout %q", reset, out.String(), errs.String(), want)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.Read(f, 1<<30)
		f.Close()
		if err != nil {
			t.Fatalf("reset %v: %v", reset, err)
		}
		if rec.Truncated || rec.Len() < 32 {
			t.Errorf("reset %v: %d steps, truncated %v", reset, rec.Len(), rec.Truncated)
		}
	}
}
