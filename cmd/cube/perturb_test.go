package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayPerturb: cube replay -perturb writes a copy that cube replay
// then reports as diverged at the named tick, in the named field; the
// original is untouched, an existing -o is never written over, and the
// flags that cannot go together are refused with what to do.
func TestReplayPerturb(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.rec")
	if code, _, errs := runCube("sim", "-preset", "bad", "-seconds", "6", "-record", path); code != 0 {
		t.Fatalf("sim -record: exit %d: %s", code, errs)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, "p.rec")
	code, out, errs := runCube("replay", "-perturb", "200:0:angvel.z:2", "-o", cp, path)
	if code != 0 || !strings.Contains(out, "body 0 angvel.z at tick 200 changed from") {
		t.Fatalf("-perturb: exit %d, %q, %q", code, out, errs)
	}
	code, out, _ = runCube("replay", cp)
	if code != 1 || !strings.Contains(out, "diverged at tick 200") || !strings.Contains(out, "1 field differs at tick 200") || !strings.Contains(out, "body 0 angvel.z") {
		t.Fatalf("replay of the copy: exit %d:\n%s", code, out)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the original record changed")
	}
	if code, _, _ := runCube("replay", path); code != 0 {
		t.Fatalf("the original no longer replays: exit %d", code)
	}
	copied, _ := os.ReadFile(cp)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-perturb", "201:0:pos.x", "-o", cp, path}, "exists"},
		{[]string{"-perturb", "201:0:pos.x", path}, "needs -o"},
		{[]string{"-o", filepath.Join(dir, "q.rec"), path}, "add one of them"},
		{[]string{"-perturb", "201:0:pos.x", "-o", filepath.Join(dir, "q.rec"), "-window", path}, "opens no window"},
		{[]string{"-perturb", "201:0:spin", "-o", filepath.Join(dir, "q.rec"), path}, "body field \"spin\""},
		{[]string{"-perturb", "99999:0:pos.x", "-o", filepath.Join(dir, "q.rec"), path}, "never reaches tick 99999"},
		{[]string{"-perturb", "201:0:pos.x", "-o", filepath.Join(dir, "nodir", "q.rec"), path}, "cannot create"},
	} {
		code, _, errs := runCube(append([]string{"replay"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if again, _ := os.ReadFile(cp); string(again) != string(copied) {
		t.Error("a refused -perturb wrote over the copy")
	}
	if _, err := os.Stat(filepath.Join(dir, "q.rec")); !os.IsNotExist(err) {
		t.Errorf("a refused -perturb left q.rec behind: %v", err)
	}
}
