package viewer

import (
	"errors"
	"fmt"
	"sort"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/record"
)

// maxCache bounds the states a Seeker caches for the segment it plays: a
// record written with a large -full-every would otherwise take one state
// per tick of a long segment (about 0.4 MB each for the cubes scene).
const maxCache = 256

// Match says how the world at a position compares with the record.
type Match int8

// Match values.
const (
	Unknown Match = iota // not simulated yet (or a keyframe restored as stored)
	Same                 // the hash (and the stored full state, if any) matches
	Differs              // the re-simulated state differs from the record
	Skipped              // the step is a skip: nothing simulated
)

func (m Match) String() string {
	switch m {
	case Same:
		return "matches the record"
	case Differs:
		return "DIFFERS from the record"
	case Skipped:
		return "skip, nothing simulated"
	}
	return "not checked"
}

// Seeker holds a world at any position of a record. It is not safe for use
// by several goroutines; a Checker has its own world.
type Seeker struct {
	rec    *record.Record
	w      *physics.World
	sc     *game.Scene
	bd     game.Bounds      // what every step must keep (record.CheckStep)
	keys   []int            // keyframe positions, ascending; keys[0] is 0
	states []*physics.State // the stored state at each keyframe
	pos    int              // the world's position
	match  Match            // how the world at pos compares with the record

	seg    int             // the segment the world and the cache are in: positions after keys[seg]; -1: none
	cbase  int             // the position of cache[0]: keys[seg], or a state the Checker kept
	cache  []physics.State // cache[i] is the world at position cbase+i
	cached int             // cache entries valid; 0: none

	derived *Checker // states kept by a check, to start seeks from; nil: none
}

// New builds the record's scene, checks that it is the one the record
// names (the refusals are cube replay's), and returns a Seeker at
// position 0.
func New(rec *record.Record) (*Seeker, error) {
	if rec == nil {
		return nil, errors.New("viewer: no record")
	}
	w, sc, bd, err := build(rec)
	if err != nil {
		return nil, err
	}
	s := &Seeker{rec: rec, w: w, sc: sc, bd: bd, seg: -1}
	if s.keys, s.states, err = keyframes(rec, bd); err != nil {
		return nil, err
	}
	n := maxCache
	if len(s.keys) > 1 {
		n = min(n, maxGap(s.keys)+1)
	}
	s.cache = make([]physics.State, n)
	return s, s.restore(0)
}

// build builds rec's scene and restores its initial state, with
// record.Replay's checks (record.Build), and returns the bounds every step
// must keep.
func build(rec *record.Record) (*physics.World, *game.Scene, game.Bounds, error) {
	h := rec.Header
	w, sc, bd, err := record.Build(&h)
	if err != nil {
		return nil, nil, bd, fmt.Errorf("viewer: %w", err)
	}
	return w, sc, bd, nil
}

// keyframes lists the positions whose state the record stores, and those
// states, after checking each against the bounds bd (record.CheckStep).
func keyframes(rec *record.Record, bd game.Bounds) ([]int, []*physics.State, error) {
	keys, states := []int{0}, []*physics.State{&rec.Header.Initial}
	for i := range rec.Len() {
		if st := rec.Step(i); st.Full != nil {
			if err := record.CheckStep(bd, &st); err != nil {
				return nil, nil, fmt.Errorf("viewer: chunk %d: tick %d: %w", st.Chunk, st.Tick, err)
			}
			keys, states = append(keys, i+1), append(states, st.Full)
		}
	}
	return keys, states, nil
}

// maxGap returns the largest distance between two keyframes.
func maxGap(keys []int) int {
	g := 0
	for i := 1; i < len(keys); i++ {
		g = max(g, keys[i]-keys[i-1])
	}
	return g
}

// Len returns the number of positions minus one: the record's step count.
// Positions go from 0 to Len.
func (s *Seeker) Len() int { return s.rec.Len() }

// Pos returns the world's position.
func (s *Seeker) Pos() int { return s.pos }

// World returns the world at Pos. Read it; do not step it.
func (s *Seeker) World() *physics.World { return s.w }

// Scene returns the record's scene as built.
func (s *Seeker) Scene() *game.Scene { return s.sc }

// Record returns the record.
func (s *Seeker) Record() *record.Record { return s.rec }

// Match says how the world at Pos compares with the record.
func (s *Seeker) Match() Match { return s.match }

// Keyframes returns the keyframe positions, ascending. Do not modify it.
func (s *Seeker) Keyframes() []int { return s.keys }

// Stored returns the state the record stores at position p, or nil when p
// is not a keyframe.
func (s *Seeker) Stored(p int) *physics.State {
	k := sort.SearchInts(s.keys, p)
	if k < len(s.keys) && s.keys[k] == p {
		return s.states[k]
	}
	return nil
}

// TickAt returns the world's tick at position p (clamped to 0..Len).
func (s *Seeker) TickAt(p int) uint32 {
	p = max(0, min(p, s.Len()))
	if p == 0 {
		return s.rec.Header.Initial.Tick
	}
	st := s.rec.Step(p - 1)
	if st.Kind == record.StepSkip {
		return st.To
	}
	return st.Tick + 1
}

// segOf returns the segment of position p > 0: the index of the greatest
// keyframe before p.
func (s *Seeker) segOf(p int) int {
	return sort.SearchInts(s.keys, p) - 1
}

// restore puts the world at keyframe k's stored state, as stored.
func (s *Seeker) restore(k int) error {
	if err := s.w.Restore(s.states[k]); err != nil {
		return fmt.Errorf("viewer: the state stored at tick %d: %w", s.states[k].Tick, err)
	}
	s.pos, s.match = s.keys[k], Unknown
	return nil
}

// SeekNear puts the world at the keyframe position at or before p (clamped
// to 0..Len), as the record stores it: one Restore, whatever the scene, for
// scrubbing the timeline. Match is then Unknown; Seek(p) gives the exact,
// re-simulated position.
func (s *Seeker) SeekNear(p int) error {
	p = max(0, min(p, s.Len()))
	k := sort.SearchInts(s.keys, p+1) - 1
	if s.pos == s.keys[k] && s.seg == k && s.match == Unknown {
		return nil // there already
	}
	return s.startAtKeyframe(k)
}

// startAtKeyframe restores keyframe k as stored and starts the cache of
// segment k there.
func (s *Seeker) startAtKeyframe(k int) error {
	if err := s.restore(k); err != nil {
		return err
	}
	s.seg, s.cbase, s.cached = k, s.keys[k], 1
	s.w.Save(&s.cache[0])
	return nil
}

// Seek puts the world at position p (clamped to 0..Len), re-simulating
// from the nearest state before it in its segment that it has: the world
// as it is, the segment cache, a state the Checker kept (UseDerived), or
// the keyframe the segment starts from. Past 0 it always arrives by the
// step into p, from a state at p-1 at the latest, even when it has p's
// state: the world's views of its last step (the broad phase's pairs, the
// solver's colours) are then those of the step that made the shown state.
func (s *Seeker) Seek(p int) error {
	p = max(0, min(p, s.Len()))
	if p == 0 {
		s.seg, s.cached = -1, 0
		return s.restore(0)
	}
	g := s.segOf(p)
	// The start, at p-1 at the latest: the keyframe, or better the cache,
	// or better a derived state; any state of segment g this Seeker or a
	// Checker computed is the same bits.
	start, from := s.keys[g], 'k'
	if s.seg == g && s.cached > 0 && s.cbase < p {
		start, from = s.cbase+min(p-1-s.cbase, s.cached-1), 'c'
	}
	dpos, dst := s.derivedBefore(g, p-1)
	if dpos > start {
		start, from = dpos, 'd'
	}
	if s.seg == g && s.pos >= start && (s.pos < p || s.pos == p && s.w.Stepped()) {
		from = 'w' // go on from the world as it is (at p by a step: stay)
	}
	switch from {
	case 'k':
		if err := s.startAtKeyframe(g); err != nil {
			return err
		}
	case 'c':
		// Load is for a state this world saved: the cache holds only those.
		s.w.Load(&s.cache[start-s.cbase])
		s.pos, s.match = start, s.matchAt(start)
	case 'd':
		if err := s.w.Restore(dst); err != nil {
			return fmt.Errorf("viewer: a state kept by the check at tick %d: %w", dst.Tick, err)
		}
		s.seg, s.cbase, s.cached = g, start, 1
		s.pos, s.match = start, s.matchAt(start)
		s.w.Save(&s.cache[0])
	}
	for s.pos < p {
		if err := s.step(); err != nil {
			return err
		}
		if i := s.pos - s.cbase; i == s.cached && i < len(s.cache) {
			s.w.Save(&s.cache[i])
			s.cached++
		}
	}
	return nil
}

// matchAt returns the comparison of the world, at position p of the
// current segment, with the record: Unknown at the keyframe the segment
// starts from (restored as stored).
func (s *Seeker) matchAt(p int) Match {
	if p == s.keys[s.seg] {
		return Unknown
	}
	return s.compare(p)
}

// UseDerived makes Seek start, where it helps, from the states c keeps
// as it checks the record (see Checker).
func (s *Seeker) UseDerived(c *Checker) { s.derived = c }

// derivedBefore returns the greatest position in segment g, after its
// keyframe and at most p, whose state the Checker kept, and that state;
// 0, nil when there is none.
func (s *Seeker) derivedBefore(g, p int) (int, *physics.State) {
	if s.derived == nil {
		return 0, nil
	}
	return s.derived.before(s.keys[g], p)
}

// compare compares the world, at position p, with the record.
func (s *Seeker) compare(p int) Match {
	st := s.rec.Step(p - 1)
	if st.Kind == record.StepSkip {
		return Skipped
	}
	if s.w.Hash() != st.Hash || st.Full != nil && !s.w.State().Equal(st.Full) {
		return Differs
	}
	return Same
}

// Forward moves one position forward, Back one back; both stop at the
// ends.
func (s *Seeker) Forward() error { return s.Seek(s.pos + 1) }

// Back moves one position back.
func (s *Seeker) Back() error { return s.Seek(s.pos - 1) }

// step applies step s.pos to the world, as the server did, and compares.
func (s *Seeker) step() error {
	st := s.rec.Step(s.pos)
	if err := apply(s.w, s.sc, s.bd, &st); err != nil {
		return err
	}
	s.pos++
	s.match = s.compare(s.pos)
	return nil
}

// apply does step st to w the way the server did (record.Replay's order:
// the events, then the players' inputs and the step; a skip moves the
// tick). It refuses a step beyond the bounds bd, as record.Replay does.
func apply(w *physics.World, sc *game.Scene, bd game.Bounds, st *record.Step) error {
	if st.Tick != w.Tick() {
		return fmt.Errorf("viewer: chunk %d: a step for tick %d, but the world is at tick %d", st.Chunk, st.Tick, w.Tick())
	}
	if err := record.CheckStep(bd, st); err != nil {
		return fmt.Errorf("viewer: chunk %d: tick %d: %w", st.Chunk, st.Tick, err)
	}
	if st.Kind == record.StepSkip {
		w.SkipTo(st.To)
		return nil
	}
	for k, e := range st.Events {
		if err := sc.ApplyEvent(w, e); err != nil {
			return fmt.Errorf("viewer: chunk %d: tick %d: event %d: %w", st.Chunk, st.Tick, k+1, err)
		}
	}
	if err := sc.Step(w, st.Inputs); err != nil {
		return fmt.Errorf("viewer: chunk %d: tick %d: %w", st.Chunk, st.Tick, err)
	}
	return nil
}
