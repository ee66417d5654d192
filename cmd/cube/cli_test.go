package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cubelab/cube/record"
	"github.com/cubelab/cube/session"
)

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestFailedOutputIsAnError(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "s.rec")
	if code, _, errs := runCube("sim", "-seconds", "1", "-record", rec); code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{
		{"hash", "-ticks", "10"},
		{"sim", "-seconds", "1"},
		{"sim", "-seconds", "1", "-json"},
		{"replay", rec},
		{"version"},
	} {
		var errb bytes.Buffer
		code := run(args, fullWriter{}, &errb)
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(errb.String(), "no space left") {
			t.Errorf("%v to a full disk: exit %d, stderr %q; want exit 1 and one line", args, code, errb.String())
		}
	}
	// The real thing, where the machine has it.
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		var errb bytes.Buffer
		code := run([]string{"hash", "-ticks", "10"}, f, &errb)
		f.Close()
		if code != 1 {
			t.Errorf("cube hash >/dev/full: exit %d, %q", code, errb.String())
		}
	}
}

func TestReportDirIsCheckedBeforeTheRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(t.TempDir(), "missing"), "no such file"},
		{file, "is not a folder"},
	} {
		code, out, errs := runCube("sim", "-seconds", "100", "-report-dir", c.dir)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("-report-dir %s: exit %d, stdout %q, stderr %q", c.dir, code, out, errs)
		}
	}
	if os.Geteuid() != 0 { // root writes anywhere
		ro := t.TempDir()
		if err := os.Chmod(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runCube("sim", "-seconds", "1", "-report-dir", ro); code != 2 || !strings.Contains(errs, "cannot create a file in folder") {
			t.Errorf("read-only -report-dir: exit %d, %q", code, errs)
		}
	}
}

func TestReplayFlagAfterTheFile(t *testing.T) {
	code, _, errs := runCube("replay", "some.rec", "-max-bytes", "10")
	if code != 2 || !strings.Contains(errs, "flags go before it") {
		t.Fatalf("exit %d, %q", code, errs)
	}
}

func TestErrorsSayThingsOnce(t *testing.T) {
	dir := t.TempDir()
	notRec := filepath.Join(dir, "hello.txt")
	if err := os.WriteFile(notRec, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"replay", notRec},
		{"sim", "-record", filepath.Join(dir, "no", "such", "x.rec")},
		{"sim", "-preset", "mars"},
	} {
		_, _, errs := runCube(args...)
		first := strings.Split(errs, "\n")[0]
		if !strings.HasPrefix(first, "cube "+args[0]+": ") {
			t.Errorf("%v: %q does not start with the command", args, first)
		}
		words := strings.FieldsFunc(first, func(r rune) bool { return r == ' ' || r == ':' })
		for i := 1; i < len(words); i++ {
			if words[i] == words[i-1] || (words[i] == "record" && strings.Count(first, "record") > 1) {
				t.Errorf("%v: %q repeats %q", args, first, words[i])
			}
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		code, out, _ := runCube(args...)
		if code != 0 || !strings.HasPrefix(out, "cube ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	// A binary built from a git checkout names its revision.
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git checkout here: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "cube")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.Contains(string(out), "revision "+strings.TrimSpace(string(head))) {
		t.Fatalf("version of a build from %s: %q, %v", head, out, err)
	}
}

func TestPresetByKeyNumber(t *testing.T) {
	code, out, errs := runCube("sim", "-preset", "5", "-seconds", "1", "-json")
	if code != 0 {
		t.Fatal(errs)
	}
	var m session.Summary
	if err := json.Unmarshal([]byte(out), &m); err != nil || m.Preset != "bad" || m.RTTms != 500 {
		t.Fatalf("-preset 5: %+v, %v", m, err)
	}
	if code, _, errs := runCube("sim", "-preset", "8"); code != 2 || !strings.Contains(errs, "1 perfect") {
		t.Fatalf("-preset 8: exit %d, %q", code, errs)
	}
}

// TestInterruptClosesTheRecord sends SIGINT to this process while a long
// sim records: the run stops, the record has its end marker and replays,
// and the exit code is 130.
func TestInterruptClosesTheRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "int.rec")
	done := make(chan struct{})
	var code int
	var errb bytes.Buffer
	go func() {
		defer close(done)
		code = run([]string{"sim", "-seconds", "3600", "-record", path}, &bytes.Buffer{}, &errb)
	}()
	// The record file exists once the session is set up, after the signal
	// handler was installed.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the record was never created")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-done
	if code != 130 || !strings.Contains(errb.String(), "stopped by interrupt") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.Read(f, 0)
	if err != nil || rec.Truncated {
		t.Fatalf("the interrupted record: %v, truncated %v", err, rec != nil && rec.Truncated)
	}
	res, err := record.Replay(rec)
	if err != nil || res.Divergence != nil || res.Ticks == 0 {
		t.Fatalf("replay: %+v, %v", res, err)
	}
}

func TestProgressOnlyOnATerminal(t *testing.T) {
	// A long run whose stderr is not a terminal writes nothing there.
	code, _, errs := runCube("sim", "-seconds", "600")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

// TestWrittenFilesAreIgnored: what the program writes where it runs
// (desync reports, F12 screenshots, records) stays out of git.
func TestWrittenFilesAreIgnored(t *testing.T) {
	if _, err := exec.Command("git", "rev-parse", "--git-dir").Output(); err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	for _, name := range []string{"cube-desync-tick301.txt", "cube-20261121-101010.png", "session.rec", "cmd/cube/x.rec"} {
		if err := exec.Command("git", "check-ignore", "-q", "--no-index", name).Run(); err != nil {
			t.Errorf("%s is not ignored by .gitignore", name)
		}
	}
	if err := exec.Command("git", "check-ignore", "-q", "--no-index", "../../record/testdata/session.rec").Run(); err == nil {
		t.Error("the committed golden record is ignored")
	}
}

// TestRecordSaysWhichServer: a record's metadata names the server that
// made it and its policy for missing inputs (the clocked one repeats).
func TestRecordSaysWhichServer(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, `"server":"clocked","missing":"repeat"`},
		{[]string{"-input-driven"}, `"server":"input-driven","missing":"skip"`},
		{[]string{"-input-driven", "-missing", "repeat"}, `"server":"input-driven","missing":"repeat"`},
	} {
		path := filepath.Join(t.TempDir(), "s.rec")
		args := append([]string{"sim", "-seconds", "1", "-record", path}, c.args...)
		if code, _, errs := runCube(args...); code != 0 {
			t.Fatal(errs)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r, err := record.Read(f, 1<<30)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(r.Header.Meta), c.want) {
			t.Errorf("%v: metadata %s, want %s", c.args, r.Header.Meta, c.want)
		}
	}
}

// TestClientWithoutServerNamesItsFlags: `cube client` with no flags says
// which two flags it needs, not that an empty address is not one.
func TestClientWithoutServerNamesItsFlags(t *testing.T) {
	code, _, errs := runCube("client")
	if code != 2 || !strings.Contains(errs, "no server given: want -connect HOST:PORT and -pin PIN") || strings.Contains(errs, `""`) {
		t.Errorf("cube client: exit %d, %q", code, errs)
	}
}

// TestBadNumberSaysWhatItWants: a flag value that is not a number names
// the flag and what it wants, not the flag package's bare parse error.
func TestBadNumberSaysWhatItWants(t *testing.T) {
	code, _, errs := runCube("sim", "-seconds", "abc")
	if code != 2 || !strings.Contains(errs, `-seconds "abc": want a number`) || strings.Contains(errs, "parse error") {
		t.Errorf("cube sim -seconds abc: exit %d, %q", code, errs)
	}
}
