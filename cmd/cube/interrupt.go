package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cubelab/cube/session"
)

// runControl stops a headless run on SIGINT or SIGTERM, so that its record
// is closed properly, and shows progress on stderr when stderr is a
// terminal.
type runControl struct {
	sigs     chan os.Signal
	stopped  os.Signal
	progress io.Writer // nil: no progress
	start    time.Time
	shown    time.Time
	wrote    bool
	timer    *time.Timer // for sleep
}

// newRunControl starts catching SIGINT and SIGTERM. Call stop when the run
// is over.
func newRunControl(stderr io.Writer) *runControl {
	c := &runControl{sigs: make(chan os.Signal, 1), start: time.Now()}
	signal.Notify(c.sigs, os.Interrupt, syscall.SIGTERM)
	if isTerminal(stderr) {
		c.progress = stderr
	}
	return c
}

// poll is the session's Poll hook: it reports a signal and, at most four
// times a second, rewrites the progress line.
func (c *runControl) poll(s *session.Session) bool {
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

// signalled reports, without waiting, whether a signal came; it is then
// recorded as what stopped the run.
func (c *runControl) signalled() bool {
	select {
	case sig := <-c.sigs:
		c.stopped = sig
		return true
	default:
		return false
	}
}

// sleep waits for d, or less when a signal comes, and reports whether one
// came (recorded as what stopped the run). A real-time loop sleeps here.
func (c *runControl) sleep(d time.Duration) bool {
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

// exit returns, after a run a signal stopped, the error that ends the
// program as a shell expects (128 plus the signal's number) and says that
// the record, if any, is complete; nil when no signal came.
func (c *runControl) exit(record string, played float64) error {
	if c.stopped == nil {
		return nil
	}
	msg := fmt.Sprintf("stopped by %v after %.1f s of play", c.stopped, played)
	if record != "" {
		msg += fmt.Sprintf("; the record %s is complete to that point", record)
	}
	code := 130
	if c.stopped == syscall.SIGTERM {
		code = 143
	}
	return exitError{code: code, msg: msg}
}

// stop stops catching signals and clears the progress line.
func (c *runControl) stop() {
	signal.Stop(c.sigs)
	if c.wrote {
		fmt.Fprint(c.progress, "\r\033[K")
		c.wrote = false
	}
}
