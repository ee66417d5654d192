package wire

import (
	"encoding/binary"

	"github.com/cubelab/cube/game"
)

// runExtended is the shortest run that needs a uvarint after its byte.
const runExtended = 4

// runBytes returns the encoded size of a run of n equal inputs.
func runBytes(n int) int {
	if n < runExtended {
		return 1
	}
	return 1 + uvarintLen(uint64(n-runExtended))
}

// runsSize returns the encoded size of ins as runs.
func runsSize(ins []game.Input) int {
	size := 0
	for i := 0; i < len(ins); {
		j := i + 1
		for j < len(ins) && ins[j] == ins[i] {
			j++
		}
		size += runBytes(j - i)
		i = j
	}
	return size
}

// appendRuns appends ins as runs.
func appendRuns(b []byte, ins []game.Input) []byte {
	for i := 0; i < len(ins); {
		j := i + 1
		for j < len(ins) && ins[j] == ins[i] {
			j++
		}
		in := byte(ins[i] & game.InputMask)
		if run := j - i; run < runExtended {
			b = append(b, in|byte(run-1)<<game.InputBits)
		} else {
			b = append(b, in|(runExtended-1)<<game.InputBits)
			b = binary.AppendUvarint(b, uint64(run-runExtended))
		}
		i = j
	}
	return b
}

// runs reads count inputs written by appendRuns, appending to dst.
func (r *reader) runs(dst []game.Input, count int) []game.Input {
	for n := 0; n < count && r.err == nil; {
		c := r.u8()
		run := int(c>>game.InputBits) + 1
		if run == runExtended {
			e := r.uvarint()
			if e > MaxTicks {
				r.fail(invalid("run length out of range"))
				break
			}
			run += int(e)
		}
		if n+run > count {
			r.fail(invalid("runs add up to more than %d inputs", count))
			break
		}
		v := game.Input(c) & game.InputMask
		for k := 0; k < run; k++ {
			dst = append(dst, v)
		}
		n += run
	}
	return dst
}

// fitRuns returns how many of the newest inputs of ins fit in max bytes of
// runs (a run cut to fit costs what its kept part costs).
func fitRuns(ins []game.Input, max int) int {
	size, n := 0, 0
	for end := len(ins); end > 0; {
		start := end - 1
		for start > 0 && ins[start-1] == ins[end-1] {
			start--
		}
		run := end - start
		if size+runBytes(run) > max {
			// Part of the run may still fit: a short run costs one byte.
			if size+1 <= max {
				n += min(run, runExtended-1)
			}
			return n
		}
		size += runBytes(run)
		n += run
		end -= run
	}
	return n
}
