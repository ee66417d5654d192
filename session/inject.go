package session

import (
	"math"

	"github.com/cubelab/cube/physics"
)

// InjectNondeterminism returns a Client.Perturb hook that moves the
// client's cube by one ulp along X after the step of every tick that is a
// multiple of every (so the state labelled tick+1 differs; a change before
// the step could be rounded away by it): the smallest change a float64 can
// make, standing in for a compiler that fused a multiply-add or a CPU whose
// sine differs. The server does not do it, so the client's physics is no
// longer deterministic with the server's: what the detector must find.
func InjectNondeterminism(every uint32) func(w *physics.World, tick uint32, body int) {
	return func(w *physics.World, tick uint32, player int) {
		if every == 0 || tick == 0 || tick%every != 0 {
			return
		}
		b := w.Body(player)
		b.Pos.X = math.Nextafter(b.Pos.X, math.Inf(1))
		_ = w.SetMotion(player, b.Pos, b.Rot, b.Vel, b.AngVel) // a finite value moved by one ulp stays valid
	}
}
