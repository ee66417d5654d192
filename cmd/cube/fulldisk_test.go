package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// smallDisk mounts a tmpfs of 64 KiB on a new folder, unmounted when the
// test ends, and returns the folder.
func smallDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a 64 KiB tmpfs on %s: %v: %s", dir, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// TestServerRecordOnAFullDisk: `cube server -record` on a 64 KiB tmpfs
// fills it within seconds; the server plays on, its two clients end in
// sync, the summary says the record was truncated, and cube replay reads
// it as cut short. Mounting needs root (CI runs as root).
func TestServerRecordOnAFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	path := filepath.Join(smallDisk(t), "full.rec")
	srv := startServer(t, "-record", path, "-full-every", "8", "-json")
	var wg sync.WaitGroup
	results := make([]clientResult, 2)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runTestClient(srv, "-preset", "lan", "-seconds", "6", "-seed", string(rune('1'+i)))
		}()
	}
	wg.Wait()
	for i := range results {
		results[i].check(t, "client "+string(rune('0'+i)))
	}
	m := srv.stop(t)
	if m.Players.Joined != 2 || m.Players.TimedOut != 0 || !strings.Contains(m.RecordCut, "no space left on device") {
		t.Fatalf("summary: %d joined, %d timed out, record_truncated %q", m.Players.Joined, m.Players.TimedOut, m.RecordCut)
	}
	code, out, errs := runCube("replay", path)
	if code != 0 || !strings.HasPrefix(out, "ok ") || !strings.Contains(errs, "is cut short") {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	t.Logf("summary: %s; replay: %s", m.RecordCut, strings.TrimSpace(out))
}

// TestSimRecordOnAFullDisk: `cube sim -record` on a 64 KiB tmpfs plays
// its session to the end, prints its summary, says on stderr that the
// record was truncated, and exits 1; cube replay reads the record as cut
// short. Mounting needs root (CI runs as root).
func TestSimRecordOnAFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	path := filepath.Join(smallDisk(t), "full.rec")
	code, out, errs := runCube("sim", "-seconds", "10", "-record", path, "-full-every", "8", "-json")
	if code != 1 || !strings.Contains(out, `"in_sync":true`) || !strings.Contains(errs, "truncated") || !strings.Contains(errs, "no space left on device") ||
		strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Fatalf("sim: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runCube("replay", path)
	if code != 0 || !strings.HasPrefix(out, "ok ") || !strings.Contains(errs, "is cut short") {
		t.Fatalf("replay: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
