package gametest

import "testing"

// TestStepIsTheScene: two fresh worlds are independent, and stepping one
// with the scripted inputs gives the hash of the scene's own stepping.
func TestStepIsTheScene(t *testing.T) {
	a, b := World(), World()
	if a == b || a.Hash() != b.Hash() {
		t.Fatal("two fresh worlds are the same world, or differ")
	}
	for tk := uint32(0); tk < 64; tk++ {
		if err := Step(a, Scripted(tk)); err != nil {
			t.Fatal(err)
		}
		if err := Scene.Step1(b, Scene.Script(tk, 0, b.Body(Scene.Players[0]))); err != nil {
			t.Fatal(err)
		}
	}
	if a.Tick() != 64 || a.Hash() != b.Hash() {
		t.Fatalf("tick %d; hashes %x and %x", a.Tick(), a.Hash(), b.Hash())
	}
	distinct := map[uint8]bool{}
	for tk := uint32(0); tk < Scene.ScriptPeriod(); tk++ {
		distinct[uint8(Scripted(tk))] = true
	}
	if len(distinct) < 2 {
		t.Errorf("the script holds one input throughout its period of %d ticks", Scene.ScriptPeriod())
	}
}
