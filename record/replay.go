package record

import (
	"errors"
	"fmt"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Result is the outcome of a replay.
type Result struct {
	Ticks      int         // simulated ticks whose hash matched the record
	Skipped    int         // ticks jumped over by skips, not simulated
	Divergence *Divergence // the first tick that did not match; nil if all did
	// File names the record in the commands Report suggests; "FILE"
	// when empty.
	File string
}

// Divergence describes the first tick at which the replay left the record.
type Divergence struct {
	// Tick labels the first state whose hash differs: the state after
	// simulating tick Tick-1 with Inputs.
	Tick     uint32
	Chunk    int          // the chunk that holds that step
	Inputs   []game.Input // the players' inputs simulated to reach it
	Recorded uint64       // its hash in the record
	Replayed uint64       // its hash in the replay

	// Diff lists the fields that differ, recorded then replayed, between the
	// first full state stored at or after Tick and the replayed state of the
	// same tick, DiffTick. Compared says whether such a state was found.
	Diff     []physics.FieldDiff
	DiffTick uint32
	Compared bool
	Note     string // where the diff was taken, in words

	// Stage is the first stage of tick Tick-1's step whose hash differs
	// from the one the record stores, when it stores stage hashes for it
	// (Header.Stages); nil otherwise.
	Stage *StageDivergence
}

// Replay rebuilds the server's world from rec's header and re-simulates
// every step, checking the hash after every simulated tick and every stored
// full state bit for bit. A divergence is a result, not an error: the error
// is for a record that cannot be replayed at all (the configuration or the
// initial state does not fit the scene, steps out of order, a stored full
// state that does not hash to its recorded hash).
func Replay(rec *Record) (Result, error) {
	var res Result
	if rec == nil {
		return res, errors.New("record: replay: no record")
	}
	w, sc, bd, err := Build(&rec.Header)
	if err != nil {
		return res, fmt.Errorf("record: replay: %w", err)
	}
	for i := range rec.Len() {
		s := rec.Step(i)
		match, err := apply(w, sc, bd, &s)
		if err != nil {
			return res, err
		}
		switch {
		case s.Kind == StepSkip:
			res.Skipped += int(s.To - s.Tick)
		case match:
			res.Ticks++
		default:
			res.Divergence, err = diverge(w, sc, bd, rec, i)
			return res, err
		}
	}
	return res, nil
}

// apply does step s to w the way the server did and, for a tick, reports
// whether the state after it matches the record. It refuses a step beyond
// the bounds bd (CheckStep).
func apply(w *physics.World, sc *game.Scene, bd game.Bounds, s *Step) (bool, error) {
	if s.Tick != w.Tick() {
		return false, fmt.Errorf("record: replay: chunk %d: a step for tick %d, but the world is at tick %d", s.Chunk, s.Tick, w.Tick())
	}
	switch s.Kind {
	case StepSkip:
		if d := s.To - s.Tick; d == 0 || d >= MaxSkip {
			return false, fmt.Errorf("record: replay: chunk %d: a skip from tick %d to %d does not go forwards", s.Chunk, s.Tick, s.To)
		}
		w.SkipTo(s.To)
		return true, nil
	case StepTick:
	default:
		return false, fmt.Errorf("record: replay: chunk %d: tick %d: unknown step kind %d", s.Chunk, s.Tick, s.Kind)
	}
	if len(s.Inputs) != len(sc.Players) {
		return false, fmt.Errorf("record: replay: chunk %d: tick %d: %d inputs for %d players", s.Chunk, s.Tick, len(s.Inputs), len(sc.Players))
	}
	for p, in := range s.Inputs {
		if !in.Valid() {
			return false, fmt.Errorf("record: replay: chunk %d: tick %d: player %d's input %#02x has bits outside %#02x", s.Chunk, s.Tick, p, uint8(in), uint8(game.InputMask))
		}
	}
	if err := CheckStep(bd, s); err != nil {
		return false, fmt.Errorf("record: replay: chunk %d: tick %d: %w", s.Chunk, s.Tick, err)
	}
	if s.Full != nil {
		if s.Full.Tick != s.Tick+1 || s.Full.Hash() != s.Hash {
			return false, fmt.Errorf("record: replay: chunk %d: %w: the full state stored after tick %d (labelled %d) does not hash to its recorded hash %016x",
				s.Chunk, ErrMalformed, s.Tick, s.Full.Tick, s.Hash)
		}
	}
	for k, e := range s.Events {
		if err := sc.ApplyEvent(w, e); err != nil {
			return false, fmt.Errorf("record: replay: chunk %d: tick %d: event %d: %w", s.Chunk, s.Tick, k+1, err)
		}
	}
	if err := sc.Step(w, s.Inputs); err != nil {
		return false, fmt.Errorf("record: replay: chunk %d: tick %d: %w", s.Chunk, s.Tick, err)
	}
	if w.Hash() != s.Hash {
		return false, nil
	}
	return s.Full == nil || w.State().Equal(s.Full), nil
}

// diverge describes the divergence at step i, which w has just simulated:
// it goes on simulating to the first stored full state and diffs there.
func diverge(w *physics.World, sc *game.Scene, bd game.Bounds, rec *Record, i int) (*Divergence, error) {
	s := rec.Step(i)
	d := &Divergence{Tick: s.Tick + 1, Chunk: s.Chunk, Inputs: s.Inputs, Recorded: s.Hash, Replayed: w.Hash()}
	d.Stage = stageDivergence(rec, i)
	j, sj := i, s
	for sj.Full == nil {
		j++
		if j == rec.Len() {
			d.Note = fmt.Sprintf("first divergence at tick %d (hash); the record stores no full state at or after it, so no field diff", d.Tick)
			return d, nil
		}
		sj = rec.Step(j)
		if _, err := apply(w, sc, bd, &sj); err != nil {
			return d, err
		}
	}
	full := sj.Full
	d.Diff = physics.Diff(full, w.State(), 0)
	d.DiffTick, d.Compared = full.Tick, true
	switch {
	case j == i && d.Recorded == d.Replayed:
		d.Note = fmt.Sprintf("first divergence at tick %d: the hashes agree but the stored full state differs (a hash collision)", d.Tick)
	case j == i:
		d.Note = fmt.Sprintf("first divergence at tick %d (hash); field diff there, against its stored full state", d.Tick)
	case len(d.Diff) > 0:
		d.Note = fmt.Sprintf("first divergence at tick %d (hash); field diff at the next stored full state, tick %d", d.Tick, d.DiffTick)
	default:
		d.Note = fmt.Sprintf("first divergence at tick %d (hash); the next stored full state, tick %d, equals the replayed one: a wrong recorded hash, or a divergence that died out", d.Tick, d.DiffTick)
	}
	return d, nil
}
