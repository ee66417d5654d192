package protocol

import (
	"testing"

	"github.com/cubelab/cube/game"
)

// TestFoldInputTellsStreamsApart: a chain changes with every tick and
// input folded, so two streams that differ in one input, in one tick's
// number or in their order end with different chains, and equal streams
// with equal ones.
func TestFoldInputTellsStreamsApart(t *testing.T) {
	fold := func(ticks []uint32, ins []uint8) uint64 {
		c := uint64(ChainStart)
		for i, tk := range ticks {
			c = FoldInput(c, tk, ins[i])
		}
		return c
	}
	base := fold([]uint32{10, 11, 12}, []uint8{1, 2, 3})
	if again := fold([]uint32{10, 11, 12}, []uint8{1, 2, 3}); again != base {
		t.Fatalf("the same stream folded to %x and %x", base, again)
	}
	for name, c := range map[string]uint64{
		"one input":     fold([]uint32{10, 11, 12}, []uint8{1, 2, 4}),
		"one tick":      fold([]uint32{10, 11, 13}, []uint8{1, 2, 3}),
		"order":         fold([]uint32{11, 10, 12}, []uint8{2, 1, 3}),
		"skipped":       fold([]uint32{10, 11, 12}, []uint8{1, 2, SkippedMark}),
		"one tick less": fold([]uint32{10, 11}, []uint8{1, 2}),
	} {
		if c == base {
			t.Errorf("%s: the chain did not change", name)
		}
	}
	// FNV-1a 64 of the five bytes of tick 0 and input 0.
	if got := FoldInput(ChainStart, 0, 0); got != 0xe4bc4fd9252be94f {
		t.Errorf("FoldInput(ChainStart, 0, 0) = %#x", got)
	}
}

// TestFoldAll: every player's input in player order, or one SkippedMark
// for a skipped tick whatever the inputs.
func TestFoldAll(t *testing.T) {
	ins := []game.Input{3, 5}
	want := FoldInput(FoldInput(ChainStart, 7, 3), 7, 5)
	if got := FoldAll(ChainStart, 7, ins, false); got != want {
		t.Errorf("FoldAll = %#x, want the inputs folded in order, %#x", got, want)
	}
	if FoldAll(ChainStart, 7, []game.Input{5, 3}, false) == want {
		t.Error("swapping two players' inputs gave the same chain")
	}
	skip := FoldInput(ChainStart, 7, SkippedMark)
	if got := FoldAll(ChainStart, 7, ins, true); got != skip {
		t.Errorf("a skipped tick folded to %#x, want one SkippedMark, %#x", got, skip)
	}
	if game.Input(SkippedMark).Valid() {
		t.Errorf("SkippedMark %#x is a valid input", SkippedMark)
	}
}
