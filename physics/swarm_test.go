package physics

import "testing"

// The swarm is the engine's test scene for fast boxes: small boxes thrown
// at each other, at a wall, a ramp and the driven cube, at up to 9 m/s
// and spinning at up to about 10 rad/s, thrown again every 200 ticks. It runs
// the paths the arena and the pile reach only now and then: contacts made
// again in every substep (redo), separations computed from the poses of
// bodies that turn fast (exactCon), face contacts that look beyond the
// face's border (featExt), and the closest edges of boxes that meet past
// their faces' borders (nearEdges).

// swarmCube is the body index of the driven cube in the swarm.
const swarmCube = 2

// swarmBoxes is the number of thrown boxes.
const swarmBoxes = 24

// newSwarm builds the swarm with configuration cfg:
//
//	0  a static wall, 8 x 2 x 0.6 m, at (0, 1, -4), turned about y
//	1  a static slab, 4 x 0.4 x 6 m, tilted about x, at (6, 0.3, 0)
//	2  the driven 1 m, 1 kg cube at (0, 0.5, 3)
//	3- 24 boxes of 0.4 to 0.6 m, 0.1 to 0.6 kg, in 4 rows of 6, 1.2 m
//	   apart, at heights 0.3 to 1.1 m
func newSwarm(cfg Config) (*World, error) {
	wall := DefaultBoxDef()
	wall.Static, wall.Half, wall.Pos, wall.Rot = true, Vec3{4, 1, 0.3}, Vec3{0, 1, -4}, AxisTurn(Vec3{0, 1, 0}, 0.125)
	slab := DefaultBoxDef()
	slab.Static, slab.Half, slab.Pos, slab.Rot = true, Vec3{2, 0.2, 3}, Vec3{6, 0.3, 0}, AxisTurn(Vec3{1, 0, 0}, 0.1)
	cube := DefaultBoxDef()
	cube.Pos = Vec3{0, 0.5, 3}
	defs := []BoxDef{wall, slab, cube}
	for k := 0; k < swarmBoxes; k++ {
		d := DefaultBoxDef()
		d.Half = Vec3{0.2 + mul(0.05, float64(k%3)), 0.2 + mul(0.05, float64(k%2)), 0.25}
		d.Mass = 0.1 + mul(0.1, float64(k%6))
		d.Pos = Vec3{-3 + mul(1.2, float64(k%6)), 0.3 + mul(0.4, float64(k%3)), -2 + mul(1.2, float64(k/6))}
		d.Rot = AxisTurn(Vec3{0, 1, 0}, float64(k%5)/8)
		if k%4 == 0 {
			d.Restitution = 0.4
		}
		defs = append(defs, d)
	}
	return buildScene(cfg, defs)
}

// mustSwarm is the swarm with the default configuration.
func mustSwarm() *World { return mustScene(newSwarm) }

// swarmThrow throws every box of the swarm every 200 ticks: an impulse
// towards a target that moves from throw to throw (the wall, the slab's
// edge, the driven cube, the middle), off the centre so that it spins.
func swarmThrow(w *World) error {
	t := w.Tick()
	if t%200 != 0 {
		return nil
	}
	targets := [4]Vec3{{0, 0.5, -3.5}, {4, 0.4, -2}, w.Body(swarmCube).Pos, {0, 1.5, 0}}
	for k := 0; k < swarmBoxes; k++ {
		i := 3 + k
		b := w.Body(i)
		target := targets[(int(t/200)+k)%4]
		d := target.Sub(b.Pos)
		l := d.Len()
		if l < 0.1 {
			continue
		}
		speed := 5 + float64(k%5)               // m/s
		j := d.Scale(mul(w.Mass(i), speed) / l) // N·s
		j.Y += mul(w.Mass(i), 2)                // and up
		off := Vec3{0.03, 0.04, -0.03}.Scale(float64(k%3) - 1)
		if err := w.ApplyImpulseAt(i, j, b.Pos.Add(off)); err != nil {
			return err
		}
	}
	return nil
}

// swarmDrive is the drive: it chases the thrown boxes, jumps
// among them and backs off, a 512-tick loop.
func swarmDrive(t uint32) drive {
	switch t %= 512; {
	case t < 96:
		return negZ
	case t < 160:
		return negZ | posX | hop
	case t < 256:
		return posZ | negX
	case t < 320:
		return posX
	case t < 400:
		return posZ | hop
	}
	return negX
}

func TestSwarmKeepsOverlapSmall(t *testing.T) {
	w := mustSwarm()
	sc := testScenes[2]
	deepest, at := 0.0, 0
	for k := 0; k < 1200; k++ {
		if err := sc.step(w); err != nil {
			t.Fatal(err)
		}
		if o := MaxOverlap(w); o > deepest {
			deepest, at = o, k
		}
	}
	if deepest > 0.04 { // measured: 0.029 m (light boxes thrown into each other at 9 m/s)
		t.Errorf("overlap %.4f m at tick %d", deepest, at)
	}
}
