package game

import (
	"testing"

	"github.com/cubelab/cube/physics"
)

// TestHeapFallsAsleep pulls the cubes scene's cubes into a heap for 4 s
// and lets go: the heap must fall asleep. Two resting islands that touch
// on and off (a contact found only while one of them sleeps) kept each
// other awake for ever when a wake by contact reset the rest counts: each
// woke the other a few steps before its count came round, and 365 bodies
// were still awake a minute later (physics.World.wakeTouched).
func TestHeapFallsAsleep(t *testing.T) {
	if testing.Short() {
		t.Skip("slow in the short mode")
	}
	w, sc, err := Build("cubes", physics.DefaultConfig(), Options{Quantize: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 256+640; i++ {
		in := Pull | Forward
		if i >= 256 {
			in = 0
		}
		if err := sc.Step1(w, in); err != nil {
			t.Fatal(err)
		}
		if i >= 256 && w.AwakeCount() == 0 {
			t.Logf("asleep %d steps after the pull", i-255)
			return
		}
	}
	t.Fatalf("10 s after the pull, %d bodies are still awake", w.AwakeCount())
}
