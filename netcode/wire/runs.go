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

// sameInput reports whether a and b are sent as the same input (bits
// outside game.InputMask are not sent, so they must not split a run: the
// decoder refuses two runs of the same input).
func sameInput(a, b game.Input) bool { return (a^b)&game.InputMask == 0 }

// runsSize returns the encoded size of ins as runs.
func runsSize(ins []game.Input) int {
	size := 0
	for i := 0; i < len(ins); {
		j := i + 1
		for j < len(ins) && sameInput(ins[j], ins[i]) {
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
		for j < len(ins) && sameInput(ins[j], ins[i]) {
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

// runs reads count inputs written by appendRuns, appending to dst. Two
// runs in a row of the same input are refused: appendRuns would have
// written one, and a message has one encoding.
func (r *reader) runs(dst []game.Input, count int) []game.Input {
	prev := -1
	for n := 0; n < count && r.err == nil; {
		c := r.u8()
		if r.err == nil && int(c&byte(game.InputMask)) == prev {
			r.fail(invalid("two runs in a row of input %#x", prev))
			break
		}
		prev = int(c & byte(game.InputMask))
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

// longestRun returns the longest run that fits in size bytes.
func longestRun(size int) int {
	switch {
	case size < 1:
		return 0
	case size == 1:
		return runExtended - 1
	case size > 5:
		size = 5 // a uvarint of 4 bytes already holds more than MaxTicks
	}
	return runExtended - 1 + 1<<(7*(size-1))
}

// fitRuns returns how many of the newest inputs of ins fit in max bytes of
// runs (a run cut to fit costs what its kept part costs).
func fitRuns(ins []game.Input, max int) int {
	size, n := 0, 0
	for end := len(ins); end > 0; {
		start := end - 1
		for start > 0 && sameInput(ins[start-1], ins[end-1]) {
			start--
		}
		run := end - start
		if size+runBytes(run) > max {
			// Part of the run may still fit.
			return n + min(run, longestRun(max-size))
		}
		size += runBytes(run)
		n += run
		end -= run
	}
	return n
}
