package predict

import "github.com/cubelab/cube/physics"

// Thresholds decide when a predicted state is far enough from the server's
// to need a visible correction. The defaults sit far above the bits a
// replay can differ by and far below what the eye sees: 0.3 mm, about
// 0.5 degrees, 1 mm/s.
type Thresholds struct {
	Pos2    float64 // squared position error, m²
	Rot     float64 // 1 - |q1·q2|; |q1·q2| because q and -q are the same rotation
	Vel2    float64 // squared linear velocity error, (m/s)²
	AngVel2 float64 // squared angular velocity error, (rad/s)²
}

// DefaultThresholds returns 1e-7 m², 1e-5, and 1e-6 for both velocities.
func DefaultThresholds() Thresholds {
	return Thresholds{Pos2: 1e-7, Rot: 1e-5, Vel2: 1e-6, AngVel2: 1e-6}
}

// Error is how far one body's predicted state is from the server's.
type Error struct {
	Pos2, Rot, Vel2, AngVel2 float64
}

// bodyError compares two body states.
func bodyError(a, b *physics.BodyState) Error {
	dp, dv, dw := a.Pos.Sub(b.Pos), a.Vel.Sub(b.Vel), a.AngVel.Sub(b.AngVel)
	d := a.Rot.Dot(b.Rot)
	if d < 0 {
		d = -d
	}
	return Error{Pos2: dp.Dot(dp), Rot: 1 - d, Vel2: dv.Dot(dv), AngVel2: dw.Dot(dw)}
}

// Exceeds reports whether e is beyond any of the thresholds.
func (e Error) Exceeds(t Thresholds) bool {
	return e.Pos2 > t.Pos2 || e.Rot > t.Rot || e.Vel2 > t.Vel2 || e.AngVel2 > t.AngVel2
}
