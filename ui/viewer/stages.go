package viewer

import (
	"fmt"
	"path/filepath"
)

// StageLines returns the first divergence's stage report for the help
// panel (S): a heading, then "what\tvalue" lines: the first stage of the
// divergent tick's step whose hash differs from the one the record
// stores, both hashes, how many stages differ, how many values that stage
// changed, and how to name the value (two traces of the tick). A record
// without stage hashes says how to make one. nil when the check found no
// divergence.
func (v *View) StageLines() []string {
	r := v.st.First
	if r == nil || r.Divergence == nil {
		return nil
	}
	d := r.Divergence
	tick := d.Tick - 1
	file := filepath.Base(v.Name)
	trace := fmt.Sprintf("cube replay -trace %d -o A.stg %s on each machine, then cube replay -diff-trace A.stg B.stg", tick, file)
	out := []string{fmt.Sprintf("Stage report, tick %d's step, which made the state of tick %d (S closes it)", tick, d.Tick)}
	sd := d.Stage
	switch {
	case sd == nil:
		return append(out,
			"stage hashes\tnone in this record: record with -record-stages to have them",
			"which stage\t"+trace)
	case sd.Why != "":
		return append(out, "stage hashes\tnot compared: "+sd.Why)
	case !sd.Found():
		return append(out,
			fmt.Sprintf("stages\tall %d agree with the record", sd.Stages),
			"so\tthe state changed outside the step (after it, as cube replay -perturb does)")
	}
	out = append(out,
		fmt.Sprintf("first differing stage\t%d of %d: %s", sd.Stage, sd.Stages, sd.Name),
		fmt.Sprintf("its hash\trecorded %016x, replayed %016x", sd.RecordedHash, sd.Hash),
		fmt.Sprintf("stages that differ\t%d of %d", sd.Differ, min(sd.Stages, sd.RecordedStages)))
	if sd.OtherPath || sd.Stages != sd.RecordedStages {
		out = append(out, fmt.Sprintf("stage lists\tdiffer in shape (%d recorded, %d replayed): later indices may name other stages", sd.RecordedStages, sd.Stages))
	}
	return append(out,
		fmt.Sprintf("values it changed\t%d here: one of them differs", sd.Changed),
		"which value\t"+trace)
}
