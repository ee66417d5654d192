package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cubelab/cube/internal/netclient"
	"github.com/cubelab/cube/internal/runctl"
	"github.com/cubelab/cube/internal/serve"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testServer is `cube server` running in this process.
type testServer struct {
	addr, pin string
	ctl       *runctl.Control
	done      chan struct{}
	code      int
	out       syncBuffer // stdout after the listening line
	copied    chan error // the end of the copy into out
	errs      syncBuffer
}

// startServer runs `cube server -listen 127.0.0.1:0 args...` and reads its
// listening line.
func startServer(t *testing.T, args ...string) *testServer {
	t.Helper()
	s := &testServer{ctl: runctl.Quiet(), done: make(chan struct{}), copied: make(chan error, 1)}
	pr, pw := io.Pipe()
	args = append([]string{"-listen", "127.0.0.1:0"}, args...)
	go func() {
		defer close(s.done)
		s.code = runCommand("server", func(a []string, o, e io.Writer) error { return serveWith(a, o, e, s.ctl) }, args, pw, &s.errs)
		pw.Close()
	}()
	rd := bufio.NewReader(pr)
	line, err := rd.ReadString('\n')
	if err != nil {
		<-s.done
		t.Fatalf("no listening line: %v; exit %d, stderr %q", err, s.code, s.errs.String())
	}
	f := strings.Fields(line)
	if len(f) != 4 || f[0] != "listening" || f[2] != "pin" || len(f[3]) != 64 || !strings.HasPrefix(f[1], "127.0.0.1:") {
		t.Fatalf("listening line %q, want \"listening ADDR pin PIN\"", line)
	}
	s.addr, s.pin = f[1], f[3]
	go func() {
		_, err := io.Copy(&s.out, rd)
		s.copied <- err
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			s.ctl.Deliver(syscall.SIGTERM)
			<-s.done
		}
	})
	return s
}

// stop stops the server as SIGTERM does and returns its summary.
func (s *testServer) stop(t *testing.T) serve.Summary {
	t.Helper()
	s.ctl.Deliver(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop within 30 s of SIGTERM")
	}
	if s.code != 0 {
		t.Fatalf("server exit %d, stderr %q", s.code, s.errs.String())
	}
	var m serve.Summary
	// The copy ends when the pipe closes, shortly after the run.
	deadline := time.Now().Add(5 * time.Second)
	for {
		if err := json.Unmarshal([]byte(s.out.String()), &m); err == nil || time.Now().After(deadline) {
			if err != nil {
				t.Fatalf("server summary %q: %v", s.out.String(), err)
			}
			select {
			case err := <-s.copied:
				if err != nil {
					t.Fatalf("reading the server's output: %v", err)
				}
			default: // still copying what follows the summary
			}
			return m
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// clientResult is what a `cube client` run in this process gave.
type clientResult struct {
	code      int
	out, errs string
	report    netclient.Report
}

// runClient runs `cube client -connect` against s with args and -json.
func runTestClient(s *testServer, args ...string) clientResult {
	var out, errs syncBuffer
	args = append([]string{"-connect", s.addr, "-pin", s.pin, "-json"}, args...)
	code := runCommand("client", func(a []string, o, e io.Writer) error { return connect(a, o, e, runctl.Quiet()) }, args, &out, &errs)
	r := clientResult{code: code, out: out.String(), errs: errs.String()}
	// A client that fails prints no report; one that succeeds must.
	if err := json.Unmarshal([]byte(r.out), &r.report); err != nil && code == 0 {
		r.code = -1
		r.errs += fmt.Sprintf("\n(exit 0, but its report does not decode: %v)", err)
	}
	return r
}

// inSync checks that a client ended as it must.
func (r *clientResult) check(t *testing.T, name string) {
	t.Helper()
	s := &r.report
	if r.code != 0 {
		t.Errorf("%s: exit %d, stderr %q", name, r.code, r.errs)
		return
	}
	if !s.Final.InSync || !s.Final.Settled || s.Mispredictions.Nondeterminism != 0 || s.Rejected != 0 {
		t.Errorf("%s: in sync %v, settled %v, nondeterminism %d, rejected %d:\n%s", name, s.Final.InSync, s.Final.Settled,
			s.Mispredictions.Nondeterminism, s.Rejected, r.out)
	}
}
