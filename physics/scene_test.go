package physics

// Player is the body index of the player cube in the canonical scene.
const Player = 0

// NewScene builds, for the engine's own tests, the arena of package game (which
// this package cannot import): a 1 m, 1 kg player cube resting on the ground at the origin, a wall
// ahead of it (towards -Z), a ramp to its left, a step to its right, and a 3 m
// fence around a 32 m square so that the cube stays near the obstacles.
func NewScene(cfg Config) (*World, error) {
	w, err := New(cfg)
	if err != nil {
		return nil, err
	}
	player := DefaultBoxDef()
	player.Pos = Vec3{0, 0.5, 0}
	defs := []BoxDef{player}
	static := func(half, pos Vec3, rot Quat) {
		d := DefaultBoxDef()
		d.Static, d.Half, d.Pos, d.Rot = true, half, pos, rot
		defs = append(defs, d)
	}
	static(Vec3{5, 1, 0.25}, Vec3{0, 1, -8}, Identity)                       // wall
	static(Vec3{2, 0.2, 3}, Vec3{-7, 0.45, 0}, AxisTurn(Vec3{1, 0, 0}, 0.1)) // ramp, about 11.4° up towards -Z
	static(Vec3{1.5, 0.25, 1.5}, Vec3{7, 0.25, 0}, Identity)                 // step
	static(Vec3{16, 1.5, 0.5}, Vec3{0, 1.5, -16.5}, Identity)                // fence, too high to jump
	static(Vec3{16, 1.5, 0.5}, Vec3{0, 1.5, 16.5}, Identity)
	static(Vec3{0.5, 1.5, 16}, Vec3{-16.5, 1.5, 0}, Identity)
	static(Vec3{0.5, 1.5, 16}, Vec3{16.5, 1.5, 0}, Identity)
	for _, d := range defs {
		if _, err := w.AddBox(d); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// MustScene is NewScene with the default configuration, for tests and
// benchmarks; it panics only if the canonical scene itself is broken.
func MustScene() *World {
	w, err := NewScene(DefaultConfig())
	if err != nil {
		panic(err)
	}
	return w
}

// scriptSegment is one phase of the scripted input: hold In for Ticks.
type scriptSegment struct {
	Ticks uint32
	In    Input
}

// script is an 8 s loop (512 ticks at 64 Hz) that pushes the cube into the
// wall, jumps against it, turns left, backs off, turns right, hops and
// coasts. The left and right phases balance so the cube keeps near the
// middle of the scene.
var script = [...]scriptSegment{
	{128, Forward},       // towards the wall, hits it
	{32, Forward | Jump}, // jump against the wall
	{64, Left},           // turn left
	{32, Left | Forward}, // diagonal
	{128, Back},          // back off
	{96, Right},          // turn right
	{16, Jump},           // hop
	{16, 0},              // coast
}

// ScriptPeriod is the length of the scripted input loop in ticks.
const ScriptPeriod = 512

// ScriptedInput returns the canonical scripted input for tick t.
func ScriptedInput(t uint32) Input {
	t %= ScriptPeriod
	for _, s := range script {
		if t < s.Ticks {
			return s.In
		}
		t -= s.Ticks
	}
	return 0
}

// RunScript steps w for n ticks with the scripted input applied to the
// player before each step.
func RunScript(w *World, n int) error {
	for k := 0; k < n; k++ {
		if err := StepInput(w, ScriptedInput(w.Tick())); err != nil {
			return err
		}
	}
	return nil
}
