package physics

// arenaCube is the body index of the driven cube in the arena.
const arenaCube = 0

// newArena builds the arena, the engine's first test scene: a 1 m, 1 kg
// cube resting on the ground at the origin, a wall ahead of it (towards
// -Z), a ramp to its left, a step to its right, and a 3 m fence around a
// 32 m square so that the cube stays near the obstacles. Its layout is
// that of package game's arena, so that its golden hash is also the one
// `cube hash -scene arena` prints.
func newArena(cfg Config) (*World, error) {
	cube := DefaultBoxDef()
	cube.Pos = Vec3{0, 0.5, 0}
	defs := []BoxDef{cube}
	static := func(half, pos Vec3, rot Quat) {
		d := DefaultBoxDef()
		d.Static, d.Half, d.Pos, d.Rot = true, half, pos, rot
		defs = append(defs, d)
	}
	static(Vec3{5, 1, 0.25}, Vec3{0, 1, -8}, Identity)                       // wall
	static(Vec3{2, 0.2, 3}, Vec3{-7, 0.45, 0}, AxisTurn(Vec3{1, 0, 0}, 0.1)) // ramp, about 11.4° up towards -Z
	static(Vec3{1.5, 0.25, 1.5}, Vec3{7, 0.25, 0}, Identity)                 // step
	static(Vec3{16, 1.5, 0.5}, Vec3{0, 1.5, -16.5}, Identity)                // fence, too high to hop over
	static(Vec3{16, 1.5, 0.5}, Vec3{0, 1.5, 16.5}, Identity)
	static(Vec3{0.5, 1.5, 16}, Vec3{-16.5, 1.5, 0}, Identity)
	static(Vec3{0.5, 1.5, 16}, Vec3{16.5, 1.5, 0}, Identity)
	return buildScene(cfg, defs)
}

// mustArena is the arena with the default configuration.
func mustArena() *World { return mustScene(newArena) }

// scriptSegment is one phase of a scene's script: drive d for ticks.
type scriptSegment struct {
	ticks uint32
	d     drive
}

// script is the arena's script, an 8 s loop (512 ticks at 64 Hz) that pushes the cube into the
// wall, jumps against it, turns left, backs off, turns right, hops and
// coasts. The left and right phases balance so the cube keeps near the
// middle of the scene.
var script = [...]scriptSegment{
	{128, negZ},       // towards the wall, hits it
	{32, negZ | hop},  // jump against the wall
	{64, negX},        // turn left
	{32, negX | negZ}, // diagonal
	{128, posZ},       // back off
	{96, posX},        // turn right
	{16, hop},         // hop
	{16, 0},           // coast
}

// arenaPeriod is the length of the arena's script in ticks.
const arenaPeriod = 512

// arenaDrive returns the arena's drive for tick t.
func arenaDrive(t uint32) drive { return scriptDrive(script[:], t%arenaPeriod) }

// scriptDrive returns the drive of script segs at tick t of its loop (0
// past its end).
func scriptDrive(segs []scriptSegment, t uint32) drive {
	for _, s := range segs {
		if t < s.ticks {
			return s.d
		}
		t -= s.ticks
	}
	return 0
}

// runArena steps w for n ticks with the arena's drive applied to its cube
// before each step.
func runArena(w *World, n int) error {
	for k := 0; k < n; k++ {
		if err := stepArena(w, arenaDrive(w.Tick())); err != nil {
			return err
		}
	}
	return nil
}
