package viewer

import (
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// maxSpans bounds the differing spans a Checker keeps.
const maxSpans = 4096

// Span is the positions From to To, both included.
type Span struct{ From, To int }

// Status is what a Checker has found so far.
type Status struct {
	Done  int    // positions 1 to Done are checked
	Total int    // positions to check: the record's steps
	Bad   []Span // positions whose state differs from the record, ascending (at most maxSpans spans)
	// First is cube replay's result up to the first divergence, with its
	// field report; nil while none is found. FirstPos is the position of
	// the first state that differs, DiffPos that of the stored state the
	// field diff was taken against (-1 when the record stores none after
	// it).
	First             *record.Result
	FirstPos, DiffPos int
	Err               error         // a record that cannot be re-simulated
	Took              time.Duration // time spent so far
}

// DerivedBudget bounds the memory of the states a Checker keeps for seeks
// (about 0.36 MB each in the cubes scene: a 10-minute cubes record, 600
// segments, takes about 220 MB).
const DerivedBudget = 256 << 20

// minDerivedGap is the shortest segment a Checker keeps a state in.
const minDerivedGap = 32

// derivedState is a state a Checker kept: the world at position pos.
type derivedState struct {
	pos int
	st  *physics.State
}

// Checker re-simulates a record segment by segment on its own world, in
// a goroutine of its own, and compares every tick with the record: the
// timeline shows how far it got and where the record differs.
type Checker struct {
	stop     atomic.Bool
	finished chan struct{}

	mu      sync.Mutex
	st      Status
	derived []derivedState // ascending by pos
	bytes   int            // memory of derived
}

// Check starts checking rec on a world of its own and returns at once.
// Call Stop when done with it.
func Check(rec *record.Record) *Checker {
	c := &Checker{finished: make(chan struct{})}
	c.st.Total, c.st.DiffPos, c.st.FirstPos = rec.Len(), -1, -1
	go c.run(rec)
	return c
}

// Status returns a copy of what the Checker has found so far.
func (c *Checker) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.st
	st.Bad = append([]Span(nil), c.st.Bad...)
	return st
}

// Stop ends the check and waits for its goroutine.
func (c *Checker) Stop() {
	c.stop.Store(true)
	<-c.finished
}

// Wait waits until the whole record is checked (or Stop is called).
func (c *Checker) Wait() { <-c.finished }

// run is the Checker's goroutine.
func (c *Checker) run(rec *record.Record) {
	defer close(c.finished)
	start := time.Now()
	s, err := New(rec)
	if err != nil {
		c.mu.Lock()
		c.st.Err = err
		c.mu.Unlock()
		return
	}
	s.cache = s.cache[:1] // the checker only goes forwards
	for s.Pos() < s.Len() && !c.stop.Load() {
		if err := s.Forward(); err != nil {
			c.mu.Lock()
			c.st.Err = err
			c.mu.Unlock()
			return
		}
		p, m := s.Pos(), s.Match()
		var first *record.Result
		if m == Differs && c.st.First == nil {
			r, err := firstReport(s, p)
			if err != nil {
				c.mu.Lock()
				c.st.Err = err
				c.mu.Unlock()
				return
			}
			first = &r
		}
		keep := c.keepAt(s, p)
		c.mu.Lock()
		if keep != nil {
			c.derived = append(c.derived, derivedState{p, keep})
			c.bytes += stateBytes(keep)
		}
		c.st.Done, c.st.Took = p, time.Since(start)
		if m == Differs {
			c.addBad(p)
		}
		if first != nil {
			c.st.First, c.st.FirstPos = first, p
			if d := first.Divergence; d != nil && d.Compared {
				c.st.DiffPos = s.posOfKeyframeTick(p, d.DiffTick)
			}
		}
		c.mu.Unlock()
	}
}

// keepAt returns a copy of the world at position p if the Checker keeps
// it for seeks: in the middle of each segment of at least minDerivedGap
// positions, while the kept states stay within DerivedBudget. It halves
// the longest re-simulation a seek needs. Only the Checker's goroutine
// calls it (c.bytes is written there alone).
func (c *Checker) keepAt(s *Seeker, p int) *physics.State {
	g := s.segOf(p)
	if g+1 >= len(s.keys) {
		return nil
	}
	lo, hi := s.keys[g], s.keys[g+1]
	if hi-lo < minDerivedGap || p != lo+(hi-lo)/2 {
		return nil
	}
	if c.bytes+stateBytes(s.w.State()) > DerivedBudget {
		return nil
	}
	st := new(physics.State)
	s.w.Save(st)
	return st
}

// stateBytes estimates the memory of a state.
func stateBytes(st *physics.State) int {
	return len(st.Bodies)*int(unsafe.Sizeof(physics.BodyState{})) + len(st.Contacts)*int(unsafe.Sizeof(physics.ContactState{}))
}

// before returns the greatest kept position in (lo, p] and its state.
func (c *Checker) before(lo, p int) (int, *physics.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := sort.Search(len(c.derived), func(i int) bool { return c.derived[i].pos > p }) - 1
	if i < 0 || c.derived[i].pos <= lo {
		return 0, nil
	}
	return c.derived[i].pos, c.derived[i].st
}

// Kept returns how many states the Checker keeps for seeks and their
// memory in bytes.
func (c *Checker) Kept() (n, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.derived), c.bytes
}

// addBad adds position p to the differing spans; c.mu is held.
func (c *Checker) addBad(p int) {
	b := c.st.Bad
	if n := len(b); n > 0 && b[n-1].To == p-1 {
		b[n-1].To = p
		return
	}
	if len(b) < maxSpans {
		c.st.Bad = append(b, Span{p, p})
	}
}

// firstReport returns cube replay's result for a record whose first
// divergence is at position p: record.Replay from the keyframe before p
// (the states before it matched, so it is the straight replay's), with
// the ticks matched before that keyframe added.
func firstReport(s *Seeker, p int) (record.Result, error) {
	g := s.segOf(p)
	from := s.keys[g]
	sub := s.rec.From(from)
	sub.Header.Initial = *s.states[g]
	r, err := record.Replay(sub)
	if err != nil {
		return r, err
	}
	for i := range from {
		switch st := s.rec.Step(i); st.Kind {
		case record.StepTick:
			r.Ticks++
		case record.StepSkip:
			r.Skipped += int(st.To - st.Tick)
		}
	}
	return r, nil
}

// posOfKeyframeTick returns the first keyframe position at or after p
// whose state is labelled tick, or -1.
func (s *Seeker) posOfKeyframeTick(p int, tick uint32) int {
	for k, kp := range s.keys {
		if kp >= p && s.states[k].Tick == tick {
			return kp
		}
	}
	return -1
}
