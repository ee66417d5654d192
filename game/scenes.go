package game

import "github.com/cubelab/cube/physics"

// add adds boxes to w and returns the index of the first.
func add(w *physics.World, defs ...physics.BoxDef) (int, error) {
	first := w.NumBodies()
	for _, d := range defs {
		if _, err := w.AddBox(d); err != nil {
			return 0, err
		}
	}
	return first, nil
}

// staticBox returns the definition of a static box.
func staticBox(half, pos physics.Vec3, rot physics.Quat) physics.BoxDef {
	d := physics.DefaultBoxDef()
	d.Static, d.Half, d.Pos, d.Rot = true, half, pos, rot
	return d
}

// cube returns a dynamic cube of half extent h and mass m at p.
func cube(h, m float64, p physics.Vec3) physics.BoxDef {
	d := physics.DefaultBoxDef()
	d.Half, d.Mass, d.Pos = physics.Vec3{X: h, Y: h, Z: h}, m, p
	return d
}

// addPlayers adds the players' cubes at the given spots, in player order.
func addPlayers(w *physics.World, sc *Scene, h, m float64, spot func(p int) physics.Vec3) error {
	for p := 0; p < sc.Options.Players; p++ {
		i, err := add(w, cube(h, m, spot(p)))
		if err != nil {
			return err
		}
		sc.Players = append(sc.Players, i)
	}
	return nil
}

// arenaRules push a 1 kg cube with 14 N up to 6 m/s and jump at 5 m/s.
var arenaRules = Rules{PushAccel: 14, MaxPushVel: 6, JumpSpeed: 5}

// buildArena: a 1 m, 1 kg player cube resting on the ground at the origin,
// a wall ahead of it (towards -Z), a ramp to its left, a step to its right,
// and a 3 m fence around a 32 m square. Players after the first start in a
// row at z = 4.
func buildArena(w *physics.World, sc *Scene) error {
	sc.Rules = arenaRules
	err := addPlayers(w, sc, 0.5, 1, func(p int) physics.Vec3 {
		if p == 0 {
			return physics.Vec3{Y: 0.5}
		}
		return physics.Vec3{X: float64(2*p - 7), Y: 0.5, Z: 4}
	})
	if err != nil {
		return err
	}
	id := physics.Identity
	_, err = add(w,
		staticBox(physics.Vec3{X: 5, Y: 1, Z: 0.25}, physics.Vec3{Y: 1, Z: -8}, id),                                          // wall
		staticBox(physics.Vec3{X: 2, Y: 0.2, Z: 3}, physics.Vec3{X: -7, Y: 0.45}, physics.AxisTurn(physics.Vec3{X: 1}, 0.1)), // ramp, about 11.4° up towards -Z
		staticBox(physics.Vec3{X: 1.5, Y: 0.25, Z: 1.5}, physics.Vec3{X: 7, Y: 0.25}, id),                                    // step
		staticBox(physics.Vec3{X: 16, Y: 1.5, Z: 0.5}, physics.Vec3{Y: 1.5, Z: -16.5}, id),                                   // fence, too high to jump
		staticBox(physics.Vec3{X: 16, Y: 1.5, Z: 0.5}, physics.Vec3{Y: 1.5, Z: 16.5}, id),
		staticBox(physics.Vec3{X: 0.5, Y: 1.5, Z: 16}, physics.Vec3{X: -16.5, Y: 1.5}, id),
		staticBox(physics.Vec3{X: 0.5, Y: 1.5, Z: 16}, physics.Vec3{X: 16.5, Y: 1.5}, id),
	)
	sc.script = arenaScript
	sc.area = area{-12, -6, 12, 12}
	sc.targets = []physics.Vec3{{X: -7, Z: -2}, {X: 7}} // up the ramp, onto the step
	return err
}

// Numbers of the cubes scene, after Glenn Fiedler's GDC 2015 demo: a 1.5 m
// player cube and 900 cubes of 0.4 m, at a density of 1000 kg/m³ scaled
// down to 1 kg for a 1 m cube.
const (
	cubesGrid    = 30
	cubesSpacing = 1.0
	cubesSmall   = 0.2  // half extent of a small cube, m
	cubesPlayer  = 0.75 // half extent of the player's cube, m
)

// cubesRules roll the large cube: pushing also turns it about its leading
// edge, and pull draws the small cubes within 8 m.
var cubesRules = Rules{PushAccel: 10, MaxPushVel: 6, RollAccel: 12, JumpSpeed: 6, PullRadius: 8, PullAccel: 12}

// buildCubes: the players' cubes in a row in front of (at +Z of) a 30x30
// grid of small cubes resting 1 m apart, centred on the origin.
func buildCubes(w *physics.World, sc *Scene) error {
	sc.Rules = cubesRules
	pm := mul(mul(2*cubesPlayer, 2*cubesPlayer), 2*cubesPlayer) // 3.375 kg
	err := addPlayers(w, sc, cubesPlayer, pm, func(p int) physics.Vec3 {
		return physics.Vec3{X: float64(3 * (2*(p%2) - 1) * ((p + 1) / 2)), Y: cubesPlayer, Z: 17}
	})
	if err != nil {
		return err
	}
	sm := mul(mul(2*cubesSmall, 2*cubesSmall), 2*cubesSmall) // 0.064 kg
	first := -float64(cubesGrid-1) / 2 * cubesSpacing
	for j := 0; j < cubesGrid; j++ {
		for i := 0; i < cubesGrid; i++ {
			p := physics.Vec3{X: first + mul(float64(i), cubesSpacing), Y: cubesSmall, Z: first + mul(float64(j), cubesSpacing)}
			if _, err := add(w, cube(cubesSmall, sm, p)); err != nil {
				return err
			}
		}
	}
	sc.script = cubesScript
	sc.area = area{-13, -13, 13, 13}
	sc.pulls = true
	return nil
}

// idleRules push like the arena's but the scenes below script no input.
var idleRules = arenaRules

// buildPyramid: 55 unit boxes in rows of 10, 9, ..., 1, each row resting
// on the one below, 2 cm apart, in the plane z = 0; the player's cube
// waits 8 m away.
func buildPyramid(w *physics.World, sc *Scene) error {
	sc.Rules = idleRules
	if err := addPlayers(w, sc, 0.5, 1, idlePlayerSpot); err != nil {
		return err
	}
	const base, gap = 10, 0.02
	for row := 0; row < base; row++ {
		n := base - row
		for k := 0; k < n; k++ {
			// x = (k - (n-1)/2) * (1 + gap), from an integer to stay exact.
			x := mul(float64(2*k-(n-1)), (1+gap)/2)
			if _, err := add(w, cube(0.5, 1, physics.Vec3{X: x, Y: 0.5 + float64(row)})); err != nil {
				return err
			}
		}
	}
	sc.area = area{-10, -10, 10, 10}
	return nil
}

// buildStack: 10 unit boxes stacked at the origin, each resting on the one
// below; the player's cube waits 8 m away.
func buildStack(w *physics.World, sc *Scene) error {
	sc.Rules = idleRules
	if err := addPlayers(w, sc, 0.5, 1, idlePlayerSpot); err != nil {
		return err
	}
	for k := 0; k < 10; k++ {
		if _, err := add(w, cube(0.5, 1, physics.Vec3{Y: 0.5 + float64(k)})); err != nil {
			return err
		}
	}
	sc.area = area{-10, -10, 10, 10}
	return nil
}

// idlePlayerSpot puts player p's cube in a row at z = 8.
func idlePlayerSpot(p int) physics.Vec3 {
	return physics.Vec3{X: float64(2*p - 7), Y: 0.5, Z: 8}
}

// dropRules push body 0 with 4 N and no speed limit, as the other engines
// measured on the drop scene (Rapier and others) do.
var dropRules = Rules{PushAccel: 4}

// buildDrop: the layout of the drop benchmark the other engines run, so
// that `cube bench -scene drop` measures the same work. Cube i (unit, 1 kg)
// has layer = i/100, k = i%100 and starts at x = (k%10)*1.2 - 6 +
// 0.01*layer, y = 1 + 1.5*layer, z = (k/10)*1.2 - 6, at rest. The first
// cubes are the players'.
func buildDrop(w *physics.World, sc *Scene) error {
	sc.Rules = dropRules
	for i := 0; i < sc.Options.Bodies; i++ {
		layer, k := i/100, i%100
		p := physics.Vec3{
			X: mul(float64(k%10), 1.2) - 6 + mul(0.01, float64(layer)),
			Y: 1 + mul(float64(layer), 1.5),
			Z: mul(float64(k/10), 1.2) - 6,
		}
		j, err := add(w, cube(0.5, 1, p))
		if err != nil {
			return err
		}
		if i < sc.Options.Players {
			sc.Players = append(sc.Players, j)
		}
	}
	sc.script = dropScript
	sc.area = area{-8, -8, 8, 8}
	return nil
}
