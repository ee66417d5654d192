package physics

import "testing"

// measureLeaningTower stands n unit cubes of 1 kg on the ground, each 1 cm
// further along x than the one under it (a column of the drop scene, whose
// layers are set off so), steps it s seconds with sleep off, and returns
// the largest sideways drift of a cube from where it started and the
// fastest speed of a cube in the last second.
func measureLeaningTower(t testing.TB, n int, s float64) (drift, late float64) {
	cfg := DefaultConfig()
	defs := make([]BoxDef, n)
	for k := range defs {
		defs[k] = unitCube(Vec3{mul(0.01, float64(k)), 0.5 + float64(k), 0})
	}
	w := valWorld(t, cfg, defs...)
	steps := secs(cfg, s)
	for i := 0; i < steps; i++ {
		w.Step()
		for k := range defs {
			b := w.Body(k)
			drift = max(drift, sideways(b.Pos.Sub(defs[k].Pos)))
			if i >= steps-secs(cfg, 1) {
				late = max(late, b.Vel.Len())
			}
		}
	}
	return drift, late
}

// TestLeaningTowerStands: a tower of 30 unit cubes, each set off 1 cm
// sideways from the one under it, keeps the centre of mass of every part
// of it at most 15 cm from the middle of the face it stands on, well
// inside the 50 cm to its edge: it is in equilibrium and must stand, as
// the drop scene's columns of 30 must. Soft contacts bend it (each contact
// gives a little under the moment of the part above it, load.go), so the
// test allows a lean of 1 m at the top but asks that it come to rest
// (below 0.05 m/s over the last of 20 s). Before the contacts under a tall
// stack got the extra relax passes (heavy.go), the tower rocked with a
// growing swing and fell at about 10 s, its top cube landing 76 m away
// faster than a fall from its height gives; in the 3000-box drop the
// columns on the pile's edges fell so and threw their top cubes.
func TestLeaningTowerStands(t *testing.T) {
	t.Parallel()
	drift, late := measureLeaningTower(t, 30, 20)
	if drift > 1 || late > 0.05 {
		t.Errorf("leaning tower of 30: drift %.3f m, %.3f m/s in the last second; want < 1 m and < 0.05 m/s", drift, late)
	}
}
