package runctl

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cubelab/cube/session"
)

// TestProgressOnlyOnATerminal: a pipe or a buffer is no terminal, so no
// progress goes there; with one, the control rewrites one line and clears
// it at the end.
func TestProgressOnlyOnATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(w) || isTerminal(&bytes.Buffer{}) {
		t.Fatal("a pipe or a buffer taken for a terminal")
	}
	// With a terminal, the control rewrites one line and clears it.
	var term bytes.Buffer
	c := New(&bytes.Buffer{})
	c.progress = &term
	cfg := session.DefaultConfig()
	if _, _, err := session.Run(cfg, 2, func(s *session.Session) error {
		s.Poll = func(s *session.Session) bool {
			c.shown = time.Time{} // show at every chance
			return c.Poll(s)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c.Stop()
	out := term.String()
	if !strings.Contains(out, "ticks, ") || !strings.Contains(out, "s simulated") || !strings.HasSuffix(out, "\r\033[K") {
		t.Fatalf("progress %q", out)
	}
}

// TestDeliverStopsTheRun: a delivered signal stops a sleep at once, is
// what Signalled and Poll report, and is the one Stopped names.
func TestDeliverStopsTheRun(t *testing.T) {
	c := Quiet()
	if c.Signalled() || c.Stopped() != nil || c.Sleep(time.Millisecond) {
		t.Fatal("a quiet control stopped without a signal")
	}
	c.Deliver(syscall.SIGTERM)
	start := time.Now()
	if !c.Sleep(time.Hour) || time.Since(start) > time.Minute {
		t.Fatal("a signal did not end the sleep")
	}
	if c.Stopped() != syscall.SIGTERM {
		t.Fatalf("stopped by %v, want SIGTERM", c.Stopped())
	}
	c.Deliver(os.Interrupt)
	if !c.Signalled() || c.Stopped() != os.Interrupt {
		t.Fatalf("Signalled missed the interrupt (stopped by %v)", c.Stopped())
	}
	c.Deliver(syscall.SIGINT)
	if !c.Poll(nil) {
		t.Fatal("Poll missed the signal")
	}
}

// TestExitAsAShellExpects: no signal, no exit status; SIGINT 130 and
// SIGTERM 143, with what was played and the record's state.
func TestExitAsAShellExpects(t *testing.T) {
	c := Quiet()
	if code, msg := c.Exit("r.rec", 3); code != 0 || msg != "" {
		t.Fatalf("no signal: %d %q", code, msg)
	}
	c.Deliver(os.Interrupt)
	c.Signalled()
	if code, msg := c.Exit("r.rec", 3.04); code != 130 || msg != "stopped by interrupt after 3.0 s of play; the record r.rec is complete to that point" {
		t.Errorf("SIGINT: %d %q", code, msg)
	}
	c.Deliver(syscall.SIGTERM)
	c.Signalled()
	if code, msg := c.Exit("", 1); code != 143 || msg != "stopped by terminated after 1.0 s of play" {
		t.Errorf("SIGTERM: %d %q", code, msg)
	}
}
