package physics

import "testing"

// The loads scene puts the code only heavy loads reach (heavy.go: the
// extra relax passes around a body bearing heavyRatio times its mass or
// more) under the same checks as the other test scenes: a golden hash
// agreed on every build, and partial replays against full ones
// (partialScenes). No other test scene reaches it: the cubes scene's
// players stand at 53:1 on its small cubes.

// loadsCube is the body index of the driven cube in the loads scene.
const loadsCube = 0

// newLoads builds the loads scene with configuration cfg:
//
//	0  the driven 1 m, 1 kg cube at the origin
//	1, 2  a 1 m cube of 1 kg at (3, 0.5, 0) under one of 100 kg
//	3, 4  the same at x = 6 under 300 kg
//	5, 6  the same at x = 9 under 1000 kg
func newLoads(cfg Config) (*World, error) {
	box := func(pos Vec3, mass float64) BoxDef {
		d := DefaultBoxDef()
		d.Half, d.Pos, d.Mass = Vec3{0.5, 0.5, 0.5}, pos, mass
		return d
	}
	defs := []BoxDef{box(Vec3{0, 0.5, 0}, 1)}
	for k, ratio := range []float64{100, 300, 1000} {
		x := 3 * float64(k+1)
		defs = append(defs, box(Vec3{x, 0.5, 0}, 1), box(Vec3{x, 1.5, 0}, ratio))
	}
	return buildScene(cfg, defs)
}

// mustLoads is the loads scene with the default configuration.
func mustLoads() *World { return mustScene(newLoads) }

// loadsScript is an 8 s loop: settle, run into the first pair's light box
// and push it, back off, hop, rest.
var loadsScript = [...]scriptSegment{
	{64, 0},    // settle
	{96, posX}, // into the light box under 100 kg
	{32, 0},    // coast
	{96, negX}, // back off
	{32, hop},  // hop
	{192, 0},   // rest
}

// loadsDrive returns the loads scene's drive for tick t.
func loadsDrive(t uint32) drive { return scriptDrive(loadsScript[:], t%512) }

// loadsScene is the loads scene as the partial-replay tests run it.
var loadsScene = testScene{"loads", mustLoads, loadsCube, loadsDrive, nil}

// loadsGolden is the loads scene's hash after 1024 ticks. It was not
// derived from this test: the test printed it when run as amd64 v1 and
// v3, 386 (sse2) and arm64 (under qemu) code, and all four agreed.
const loadsGolden = 0xa8f4df45092258b6

// TestLoadsGoldenHash: the loads scene after 1024 ticks has the hash every
// build agreed on, and it reaches the extra passes of heavy.go (else the
// golden would say nothing of them).
func TestLoadsGoldenHash(t *testing.T) {
	w := mustLoads()
	marked := 0
	for k := 0; k < 1024; k++ {
		if err := loadsScene.step(w); err != nil {
			t.Fatal(err)
		}
		for _, b := range w.ctx.sb {
			if b.bears {
				marked++
			}
		}
	}
	if marked == 0 {
		t.Fatal("no body of the loads scene was marked as bearing a heavy load: the scene does not reach heavy.go")
	}
	if got := w.Hash(); got != loadsGolden {
		t.Errorf("loads: hash after 1024 ticks = %016x, golden %016x (%d heavy marks)", got, uint64(loadsGolden), marked)
	}
}
