package record

import "fmt"

// StageDivergence is where the step of a divergent tick first left the
// stage hashes the record stores for it (Header.Stages): the replay steps
// that tick again with a stage trace and compares stage by stage.
type StageDivergence struct {
	Tick  uint32 // the tick whose step diverged (Divergence.Tick-1)
	Stage int    // the first stage whose hash differs; Stages when none does
	// Stages counts the stages of the replayed step, Recorded those of the
	// recorded one.
	Stages, RecordedStages int
	Name                   string // the stage's name, as the replayed step's trace names it
	RecordedHash, Hash     uint64 // its hash in the record and in the replay
	// OtherPath: the stage lists differ in shape (other colours, other
	// passes), so that from the first differing stage on the indices may
	// name different stages on the two machines.
	OtherPath bool
	Differ    int // stages whose hashes differ, of those both have
	// Changed counts the values the replayed step's stage changed (the
	// trace's items): one of them, or what they were computed from,
	// differs. Two traces of the tick name it (cube replay -trace).
	Changed int
	Why     string // when the stages could not be compared
}

// stageDivergence compares the stage hashes the record stores with the
// step of tick at, step i of rec, and those of that step replayed; nil
// when the record stores none for it.
func stageDivergence(rec *Record, i int) *StageDivergence {
	s := rec.Step(i)
	if s.Stages == nil {
		return nil
	}
	want := s.Stages
	d := &StageDivergence{Tick: s.Tick, RecordedStages: len(want.Hashes)}
	tr, got, err := traceStep(rec, s.Tick)
	if err != nil {
		d.Why = err.Error()
		return d
	}
	d.Stages, d.OtherPath = len(got.Hashes), got.Path != want.Path
	n := min(len(got.Hashes), len(want.Hashes))
	d.Stage = n
	for k := n - 1; k >= 0; k-- {
		if got.Hashes[k] != want.Hashes[k] {
			d.Stage = k
			d.Differ++
		}
	}
	if d.Stage < n {
		st := &tr.Stages[d.Stage]
		d.Name, d.Changed = st.Name, len(st.Items)
		d.RecordedHash, d.Hash = want.Hashes[d.Stage], got.Hashes[d.Stage]
	} else if len(got.Hashes) != len(want.Hashes) {
		d.Name = "(the end of the shorter list)"
	}
	return d
}

// Found reports whether a stage was named.
func (d *StageDivergence) Found() bool {
	return d != nil && d.Why == "" && d.Stage < max(d.Stages, d.RecordedStages)
}

// Lines says where the step diverged, for a person, in a few lines; file
// is the record's name, for the commands it suggests.
func (d *StageDivergence) Lines(file string) []string {
	switch {
	case d == nil:
		return nil
	case d.Why != "":
		return []string{"stage hashes: not compared: " + d.Why}
	case !d.Found():
		return []string{fmt.Sprintf("stage hashes: all %d stages of tick %d's step agree with the record: the state changed outside the step (after it, as cube replay -perturb does)", d.Stages, d.Tick)}
	}
	out := []string{fmt.Sprintf("stage hashes: tick %d's step first differs at stage %d of %d, %s (recorded %016x, replayed %016x); %d stages differ",
		d.Tick, d.Stage, d.Stages, d.Name, d.RecordedHash, d.Hash, d.Differ)}
	if d.Stages != d.RecordedStages || d.OtherPath {
		out = append(out, fmt.Sprintf("  the stage lists differ in shape (%d stages recorded, %d replayed): after this stage the indices may name other stages", d.RecordedStages, d.Stages))
	}
	out = append(out, fmt.Sprintf("  that stage changed %d values here; which one differs: cube replay -trace %d -o A.stg %s on each machine, then cube replay -diff-trace A.stg B.stg", d.Changed, d.Tick, file))
	return out
}
