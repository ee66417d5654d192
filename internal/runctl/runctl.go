// Package runctl stops cube's headless runs (sim, server, client) on
// SIGINT or SIGTERM, so that their records are closed properly and their
// summaries printed, and shows a sim's progress on a terminal.
package runctl

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cubelab/cube/session"
	"golang.org/x/term"
)

// Control stops a headless run on SIGINT or SIGTERM, so that its record
// is closed properly, and shows progress on stderr when stderr is a
// terminal.
type Control struct {
	sigs     chan os.Signal
	stopped  os.Signal
	progress io.Writer // nil: no progress
	start    time.Time
	shown    time.Time
	wrote    bool
	timer    *time.Timer // for sleep
}

// New starts catching SIGINT and SIGTERM. Call Stop when the run is over.
func New(stderr io.Writer) *Control {
	c := Quiet()
	signal.Notify(c.sigs, os.Interrupt, syscall.SIGTERM)
	if isTerminal(stderr) {
		c.progress = stderr
	}
	return c
}

// Quiet returns a Control that catches no signal: only Deliver stops it.
// The tests stop a run with it the way a signal would.
func Quiet() *Control {
	return &Control{sigs: make(chan os.Signal, 1), start: time.Now()}
}

// Deliver hands the run sig as if it had come from the system.
func (c *Control) Deliver(sig os.Signal) { c.sigs <- sig }

// Stopped returns the signal that stopped the run, nil if none came.
func (c *Control) Stopped() os.Signal { return c.stopped }

// Poll is the session's Poll hook: it reports a signal and, at most four
// times a second, rewrites the progress line.
func (c *Control) Poll(s *session.Session) bool {
	select {
	case sig := <-c.sigs:
		c.stopped = sig
		return true
	default:
	}
	if c.progress != nil && s.Client.Tick()%64 == 0 {
		if now := time.Now(); now.Sub(c.shown) >= 250*time.Millisecond {
			c.shown = now
			sim := s.Now().Seconds()
			rate := sim / now.Sub(c.start).Seconds()
			fmt.Fprintf(c.progress, "\r%d ticks, %.0f s simulated, %.0fx real time ", s.Client.Stats.Ticks, sim, rate)
			c.wrote = true
		}
	}
	return false
}

// Signalled reports, without waiting, whether a signal came; it is then
// recorded as what stopped the run.
func (c *Control) Signalled() bool {
	select {
	case sig := <-c.sigs:
		c.stopped = sig
		return true
	default:
		return false
	}
}

// Sleep waits for d, or less when a signal comes, and reports whether one
// came (recorded as what stopped the run). A real-time loop sleeps here.
func (c *Control) Sleep(d time.Duration) bool {
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	select {
	case sig := <-c.sigs:
		c.stopped = sig
		c.timer.Stop()
		return true
	case <-c.timer.C:
		return false
	}
}

// Exit returns, after a run a signal stopped, the exit status a shell
// expects (128 plus the signal's number: 130 for SIGINT, 143 for SIGTERM)
// and a message that says how much was played and that the record, if
// any, is complete; code 0 when no signal came.
func (c *Control) Exit(record string, played float64) (code int, msg string) {
	if c.stopped == nil {
		return 0, ""
	}
	msg = fmt.Sprintf("stopped by %v after %.1f s of play", c.stopped, played)
	if record != "" {
		msg += fmt.Sprintf("; the record %s is complete to that point", record)
	}
	code = 130
	if c.stopped == syscall.SIGTERM {
		code = 143
	}
	return code, msg
}

// Stop stops catching signals and clears the progress line.
func (c *Control) Stop() {
	signal.Stop(c.sigs)
	if c.wrote {
		fmt.Fprint(c.progress, "\r\033[K")
		c.wrote = false
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
