package record

import (
	"fmt"
	"io"

	"github.com/cubelab/cube/game"
)

// inputList formats the players' inputs of a tick: "input WA" for one
// player, "inputs WA, -, S" for several.
func inputList(ins []game.Input) string {
	if len(ins) == 1 {
		return "input " + ins[0].String()
	}
	s := "inputs "
	for i, in := range ins {
		if i > 0 {
			s += ", "
		}
		s += in.String()
	}
	return s
}

// maxReportFields bounds the field lines of a report.
const maxReportFields = 64

// Report writes the result for a person: "ok N server ticks re-simulated"
// (and the skipped ticks among them, if any), or the first divergent tick, the chunk that holds it, where
// the field diff was taken, the first differing stage of its step when
// the record stores stage hashes, and one line per differing field with
// both values, recorded first, as decimals and as bit patterns.
func (r Result) Report(w io.Writer) {
	d := r.Divergence
	if d == nil {
		if r.Skipped > 0 {
			fmt.Fprintf(w, "ok %d server ticks re-simulated (%d of them skipped), every state as recorded\n", r.Ticks, r.Skipped)
		} else {
			fmt.Fprintf(w, "ok %d server ticks re-simulated, every state as recorded\n", r.Ticks)
		}
		return
	}
	fmt.Fprintf(w, "diverged at tick %d (chunk %d) after %d matching ticks: the state after tick %d (%s) hashes to %016x, recorded %016x\n",
		d.Tick, d.Chunk, r.Ticks, d.Tick-1, inputList(d.Inputs), d.Replayed, d.Recorded)
	fmt.Fprintln(w, d.Note)
	file := r.File
	if file == "" {
		file = "FILE"
	}
	for _, l := range d.Stage.Lines(file) {
		fmt.Fprintln(w, l)
	}
	if len(d.Diff) == 0 {
		return
	}
	fields := "fields differ"
	if len(d.Diff) == 1 {
		fields = "field differs"
	}
	fmt.Fprintf(w, "%d %s at tick %d (recorded != replayed):\n", len(d.Diff), fields, d.DiffTick)
	for i, f := range d.Diff {
		if i == maxReportFields {
			fmt.Fprintf(w, "  ... and %d more\n", len(d.Diff)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", f)
	}
}
