package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/game/gametest"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

func TestRecordThenReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.rec")
	if code, _, errs := runCube("sim", "-preset", "bad", "-no-redundancy", "-seconds", "10", "-nudge-every", "2", "-record", path); code != 0 {
		t.Fatalf("sim -record: exit %d: %s", code, errs)
	}
	code, out, errs := runCube("replay", path)
	if code != 0 || !strings.HasPrefix(out, "ok ") {
		t.Fatalf("replay: exit %d, %q %q", code, out, errs)
	}

	// One flipped byte in the middle: a clear error naming the chunk, exit 2.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x40
	bad := filepath.Join(t.TempDir(), "bad.rec")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCube("replay", bad)
	if code != 2 || out != "" || !strings.Contains(errs, "chunk") || strings.Contains(errs, "goroutine") {
		t.Fatalf("flipped byte: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	// Cut short, as by a crash: what is complete still replays.
	b[len(b)/2] ^= 0x40 // undo the flip
	if err := os.WriteFile(bad, b[:len(b)*3/4], 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCube("replay", bad)
	if code != 0 || !strings.HasPrefix(out, "ok ") || !strings.Contains(errs, "cut short") {
		t.Fatalf("truncated record: exit %d, %q, %q", code, out, errs)
	}
}

func TestReplayRefusesWhatIsNotARecord(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("hello, this is not a record"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", junk}, {"replay", filepath.Join(dir, "missing")}} {
		code, _, errs := runCube(args...)
		if code != 2 || errs == "" || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if code, _, _ := runCube("replay"); code != 2 {
		t.Error("replay without a file did not exit 2")
	}
}

func TestReplayReportsTheFirstDivergentTick(t *testing.T) {
	// A record whose hash for tick 10 was written wrong (as a machine that
	// computed different bits would have): replay names tick 11, exit 1.
	path := filepath.Join(t.TempDir(), "div.rec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := gametest.World()
	h := record.Header{Scene: gametest.Scene.ID, FullEvery: 64}
	w.Save(&h.Initial)
	rw, err := record.NewWriter(f, h)
	if err != nil {
		t.Fatal(err)
	}
	for tk := uint32(0); tk < 100; tk++ {
		in := gametest.Scripted(tk)
		if err := gametest.Step(w, in); err != nil {
			t.Fatal(err)
		}
		hash := w.Hash()
		if tk == 10 {
			hash ^= 1
		}
		var full *physics.State
		if tk%64 == 63 {
			full = w.State()
		}
		if err := rw.Tick(tk, []game.Input{in}, hash, full); err != nil {
			t.Fatal(err)
		}
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, out, _ := runCube("replay", path)
	if code != 1 || !strings.Contains(out, "tick 11") {
		t.Fatalf("exit %d, report:\n%s", code, out)
	}
}

// TestReplayRefusesAnotherScene: a record whose scene this binary builds
// differently (here: its identity hash patched, as another build of the
// scene would have written it, or its name) is refused in one line, exit 2,
// instead of being reported as a divergence.
func TestReplayRefusesAnotherScene(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.rec")
	if code, _, errs := runCube("sim", "-preset", "lan", "-seconds", "2", "-record", path); code != 0 {
		t.Fatalf("sim -record: exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		from, to  []byte
		wantError string
	}{
		{"name", []byte("\x05arena"), []byte("\x05arenx"), `the record is for scene "arenx", which this program does not have`},
		{"identity", binary.LittleEndian.AppendUint64(nil, gametest.Scene.ID.Hash), binary.LittleEndian.AppendUint64(nil, gametest.Scene.ID.Hash^1), "another version of the scene"},
	} {
		bad := patchHeader(t, data, c.from, c.to)
		p := filepath.Join(dir, c.name+".rec")
		if err := os.WriteFile(p, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCube("replay", p)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.Contains(errs, c.wantError) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.name, code, out, errs, c.wantError)
		}
	}
}

// patchHeader replaces from with to in the header chunk of a record and
// recomputes the chunk's checksums (the layout is in record/doc.go).
func patchHeader(t *testing.T, data, from, to []byte) []byte {
	t.Helper()
	out := bytes.Clone(data)
	const off = 12 // magic and version
	n := int(binary.LittleEndian.Uint32(out[off+1:]))
	payload := out[off+9 : off+9+n]
	i := bytes.Index(payload, from)
	if i < 0 {
		t.Fatalf("%q is not in the header", from)
	}
	copy(payload[i:], to)
	crc := crc32.Update(crc32.ChecksumIEEE(out[off:off+5]), crc32.IEEETable, payload)
	binary.LittleEndian.PutUint32(out[off+9+n:], crc)
	return out
}
