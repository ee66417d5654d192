package physics

import "testing"

// TestDeepOverlapPushesAtMostMaxPushSpeed: boxes that overlap deeply (a
// teleport, a spawn inside another) are pushed apart no faster than
// Config.MaxPushSpeed, against the ground and between two moving boxes,
// where the soft contact alone would fling them. The push moves the boxes
// (the relaxation takes it out of their velocities), so it is measured by
// how far they move in a step.
func TestDeepOverlapPushesAtMostMaxPushSpeed(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Gravity = Vec3{}
	limit := cfg.MaxPushSpeed / 64 // m a step

	// A box sunk 0.4 m into the ground.
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultBoxDef()
	d.Pos = Vec3{0, 0.1, 0}
	if _, err := w.AddBox(d); err != nil {
		t.Fatal(err)
	}
	w.Step()
	if v := w.Body(0).Pos.Y - 0.1; v > limit*1.001 || v < 0.5*limit {
		t.Fatalf("sunk 0.4 m: pushed out %v m in a step, want at most (and near) %v", v, limit)
	}

	// Two boxes in the air, overlapping by 0.6 m.
	w, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, b := DefaultBoxDef(), DefaultBoxDef()
	a.Pos, b.Pos = Vec3{0, 5, 0}, Vec3{0.4, 5, 0}
	for _, d := range []BoxDef{a, b} {
		if _, err := w.AddBox(d); err != nil {
			t.Fatal(err)
		}
	}
	w.Step()
	if v := w.Body(1).Pos.X - w.Body(0).Pos.X - 0.4; v > limit*1.001 || v < 0.5*limit {
		t.Fatalf("overlapping by 0.6 m: parted %v m in a step, want at most (and near) %v", v, limit)
	}
}
