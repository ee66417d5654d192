package predict

import "github.com/cubelab/cube/physics"

// Views of what the client's rewinds did, for drawing: read-only, filled
// from what a replay and a rewind keep anyway (the followed set), or only
// when asked (KeepCorrection).

// Replayed appends to dst the bodies the last replay re-simulated, in the
// order its partial replay followed them, and returns it with the number
// of replays counted so far (it changes when another replay is made) and
// whether that replay was a full one: then every body was re-simulated and
// nothing is appended.
func (c *Client) Replayed(dst []int32) (list []int32, replays uint64, full bool) {
	if c.rerun.replays == 0 {
		return dst, 0, false
	}
	return append(dst, c.rerun.lastSet...), c.rerun.replays, c.rerun.lastFull
}

// Correction is a rewind to a server's state: the tick, and the bodies
// whose predicted state at that tick differed from the server's, each
// with both positions.
type Correction struct {
	Tick   uint32
	Bodies []CorrectedBody
	N      uint64 // the corrections kept so far: it changes with each
}

// CorrectedBody is one body of a Correction.
type CorrectedBody struct {
	Body              int32
	Predicted, Server physics.Vec3 // its centre at the tick, m
}

// Correction returns the newest rewind to a server's state kept while
// KeepCorrection was on (N is 0 before the first). Its Bodies are the
// client's own: read them, do not keep them.
func (c *Client) Correction() Correction { return c.rerun.corr }

// noteCorrection keeps, when asked, the bodies whose state in the world
// (the prediction at tick t) differs from the server's s.
func (c *Client) noteCorrection(t uint32, s *physics.State) {
	if !c.KeepCorrection {
		return
	}
	k := &c.rerun.corr
	k.Tick, k.Bodies = t, k.Bodies[:0]
	k.N++
	p := c.world.State()
	for i := range p.Bodies {
		a, b := &p.Bodies[i], &s.Bodies[i]
		if a.Pos != b.Pos || a.Rot != b.Rot || a.Vel != b.Vel || a.AngVel != b.AngVel || a.Asleep != b.Asleep {
			k.Bodies = append(k.Bodies, CorrectedBody{Body: int32(i), Predicted: a.Pos, Server: b.Pos})
		}
	}
}
