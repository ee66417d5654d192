package physics

// The pile is the engine's test scene for everything the arena does not
// reach: dynamic boxes on dynamic boxes, a static box with a lower index
// than the dynamic boxes on it, crossed edges, boxes of other sizes and
// masses, a bouncy box, and bodies that fall asleep and are woken by the
// driven cube running into them.

// pileCube is the body index of the driven cube in the pile.
const pileCube = 1

// newPile builds the pile with configuration cfg:
//
//	0  a static platform, 3 x 0.5 x 3 m, centred at (-3, 0.25, -4)
//	1  the driven 1 m, 1 kg cube at the origin
//	2-4  three 1 m cubes stacked on the platform, the top one offset
//	5  a 2 x 0.2 x 0.6 m plank of 3 kg on the ground at (3, 0.1, -1)
//	6  a 1 m cube standing on an edge along z at (4, 0.707, 2)
//	7  a 1 m cube with an edge along x down, dropped across 6's edge
//	8  a 0.4 m cube of 0.1 kg at (-2, 0.2, -1)
//	9  a bouncy 0.6 m cube (restitution 0.6) dropped from 3 m at (-3, 3, 1)
func newPile(cfg Config) (*World, error) {
	box := func(half, pos Vec3, rot Quat, mass float64) BoxDef {
		d := DefaultBoxDef()
		d.Half, d.Pos, d.Rot, d.Mass = half, pos, rot, mass
		return d
	}
	unit := Vec3{0.5, 0.5, 0.5}
	platform := box(Vec3{1.5, 0.25, 1.5}, Vec3{-3, 0.25, -4}, Identity, 0)
	platform.Static = true
	r2 := 0.7071067811865476
	bouncy := box(Vec3{0.3, 0.3, 0.3}, Vec3{-3, 3, 1}, Identity, 0.5)
	bouncy.Restitution = 0.6
	defs := []BoxDef{
		platform,
		box(unit, Vec3{0, 0.5, 0}, Identity, 1),
		box(unit, Vec3{-3, 1, -4}, Identity, 1),
		box(unit, Vec3{-3, 2, -4}, Identity, 1),
		box(unit, Vec3{-2.9, 3, -4}, Identity, 1),
		box(Vec3{1, 0.1, 0.3}, Vec3{3, 0.1, 0}, Identity, 3),
		box(unit, Vec3{6, r2, 0}, AxisTurn(Vec3{0, 0, 1}, 0.4142135623730951), 1),
		box(unit, Vec3{6, 2.2, 0}, AxisTurn(Vec3{1, 0, 0}, 0.4142135623730951), 1),
		box(Vec3{0.2, 0.2, 0.2}, Vec3{-2, 0.2, 0}, Identity, 0.1),
		bouncy,
	}
	return buildScene(cfg, defs)
}

// mustPile is the pile with the default configuration.
func mustPile() *World { return mustScene(newPile) }

// pileScript is a 16 s loop: wait while the pile settles and sleeps, push
// the plank into the crossed cubes, cross back into the small cube, run into
// the stack's platform and jump against the stack, back off and hop.
var pileScript = [...]scriptSegment{
	{128, 0},         // settle; the islands fall asleep
	{64, posX},       // into the plank, and it into the crossed cubes
	{32, 0},          // coast
	{128, negX},      // back across, into the small cube
	{32, 0},          // coast
	{96, negZ},       // into the platform
	{32, negZ | hop}, // jump against the stack
	{96, posZ},       // back off
	{64, hop},        // hop
	{352, 0},         // rest again
}

// pileDrive returns the pile's drive for tick t.
func pileDrive(t uint32) drive { return scriptDrive(pileScript[:], t%1024) }
