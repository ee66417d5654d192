package game

import "github.com/cubelab/cube/physics"

// segment is one phase of a scripted input: for Ticks ticks hold In, plus,
// when Seek is set, the direction keys that lead the player's cube towards
// Target (a waypoint on the ground).
type segment struct {
	Ticks  uint32
	In     Input
	Seek   bool
	Target physics.Vec3
}

// arenaScript is an 8 s loop (512 ticks at 64 Hz) that pushes the cube into
// the wall, jumps against it, turns left, backs off, turns right, hops and
// coasts. The left and right phases balance so the cube keeps near the
// middle of the scene.
var arenaScript = []segment{
	{Ticks: 128, In: Forward},       // towards the wall, hits it
	{Ticks: 32, In: Forward | Jump}, // jump against the wall
	{Ticks: 64, In: Left},           // turn left
	{Ticks: 32, In: Left | Forward}, // diagonal
	{Ticks: 128, In: Back},          // back off
	{Ticks: 96, In: Right},          // turn right
	{Ticks: 16, In: Jump},           // hop
	{Ticks: 16},                     // coast
}

// cubesScript is a 16 s loop: roll into the grid, then visit spots inside
// it, pulling the small cubes in at most of them.
var cubesScript = []segment{
	{Ticks: 192, Seek: true, Target: physics.Vec3{Z: 6}},
	{Ticks: 128, In: Pull, Seek: true},
	{Ticks: 128, In: Pull, Seek: true, Target: physics.Vec3{X: -6, Z: -4}},
	{Ticks: 128, In: Pull, Seek: true, Target: physics.Vec3{X: 6, Z: -6}},
	{Ticks: 128, Seek: true, Target: physics.Vec3{X: 6, Z: 6}},
	{Ticks: 128, In: Pull, Seek: true, Target: physics.Vec3{X: -6, Z: 6}},
	{Ticks: 192, In: Pull, Seek: true, Target: physics.Vec3{Z: -8}},
}

// dropScript is the drop benchmark's push, as the other engines run it:
// +X for 32 ticks, then -Z for 32.
var dropScript = []segment{{Ticks: 32, In: Right}, {Ticks: 32, In: Forward}}

// ScriptPeriod returns the length of the scene's scripted loop in ticks,
// 0 for a scene that scripts no input.
func (sc *Scene) ScriptPeriod() uint32 {
	var n uint32
	for _, s := range sc.script {
		n += s.Ticks
	}
	return n
}

// Script returns player p's scripted input for tick t, given its cube's
// state (a waypoint segment steers by the cube's position). Player p runs
// the loop p eighths of a period ahead of player 0.
func (sc *Scene) Script(t uint32, p int, b physics.BodyState) Input {
	period := sc.ScriptPeriod()
	if period == 0 {
		return 0
	}
	t = (t + uint32(p)*(period/MaxPlayers)) % period
	for _, s := range sc.script {
		if t >= s.Ticks {
			t -= s.Ticks
			continue
		}
		if !s.Seek {
			return s.In
		}
		return s.In | towards(b.Pos, s.Target, 0.4)
	}
	return 0
}

// Scripted returns every player's scripted input for the world's current
// tick, reusing ins.
func (sc *Scene) Scripted(w *physics.World, ins []Input) []Input {
	ins = ins[:0]
	for p, i := range sc.Players {
		ins = append(ins, sc.Script(w.Tick(), p, w.Body(i)))
	}
	return ins
}

// RunScript steps w for n ticks with every player's scripted input.
func (sc *Scene) RunScript(w *physics.World, n int) error {
	ins := make([]Input, 0, len(sc.Players))
	for k := 0; k < n; k++ {
		ins = sc.Scripted(w, ins)
		if err := sc.Step(w, ins); err != nil {
			return err
		}
	}
	return nil
}

// towards returns the direction keys that move a cube at pos towards target
// on the ground, holding none along an axis already within dead metres.
func towards(pos, target physics.Vec3, dead float64) Input {
	var in Input
	dx, dz := target.X-pos.X, target.Z-pos.Z
	switch {
	case dx > dead:
		in |= Right
	case dx < -dead:
		in |= Left
	}
	switch {
	case dz > dead:
		in |= Back
	case dz < -dead:
		in |= Forward
	}
	return in
}
