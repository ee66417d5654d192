package predict

import (
	"testing"

	"github.com/cubelab/cube/game"
)

// TestAnchorCoversTheTicksUpToTheNextKeyframe: a client that starts at a
// tick that is not a multiple of KeyEvery (a join, a transfer) can rebuild
// every tick from there, and a keyframe from before the anchor (an older
// history) is never used for the ticks after it.
func TestAnchorCoversTheTicksUpToTheNextKeyframe(t *testing.T) {
	w, _ := game.MustBuild("arena")
	var h history
	w.SkipTo(16)
	h.saveKey(w) // the keyframe of 16..23 from an older history
	w.SkipTo(19)
	h.anchor(w)
	for _, c := range []struct {
		t  uint32
		ok bool
	}{{16, false}, {18, false}, {19, true}, {23, true}, {24, false}, {15, false}} {
		k, ok := h.keyBefore(c.t)
		if ok != c.ok || ok && k.tick != 19 {
			t.Errorf("keyBefore(%d) = tick %d, %v; want 19, %v", c.t, k.tick, ok, c.ok)
		}
	}
	w.SkipTo(24)
	h.saveKey(w)
	if k, ok := h.keyBefore(30); !ok || k.tick != 24 {
		t.Errorf("keyBefore(30) = tick %d, %v; want 24, true", k.tick, ok)
	}
	// Releasing up to 20 keeps the anchor, which 20 needs.
	h.release(20)
	if _, ok := h.keyBefore(20); !ok {
		t.Error("release(20) dropped the keyframe tick 20 is rebuilt from")
	}
	h.release(25)
	if _, ok := h.keyBefore(20); ok {
		t.Error("release(25) kept a keyframe no rewind can need")
	}
}
