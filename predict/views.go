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

// TakeReplayed appends to dst the bodies any replay re-simulated since
// the previous TakeReplayed, each once, in the order the replays first
// followed them, and returns it with the number of those replays and
// whether one of them was a full one (then every body was re-simulated).
// It gathers only while KeepReplayed is on; the replays of a frame that
// runs several ticks, or of a turn that replays more than once, all
// count, where Replayed gives the last one's.
func (c *Client) TakeReplayed(dst []int32) (list []int32, replays int, full bool) {
	return c.rerun.since.take(dst)
}

// replayedSince gathers the sets of several replays: a body is listed the
// first time a replay re-simulates it, and marked so that it is not
// listed again until take.
type replayedSince struct {
	list []int32
	in   []bool // in[b]: body b is in list
	n    int    // replays gathered
	full bool   // one of them was full
}

// add gathers a replay's set (nothing but full when it was a full one) in
// a world of bodies bodies.
func (s *replayedSince) add(set []int32, full bool, bodies int) {
	s.n++
	if full {
		s.full = true
		return
	}
	if len(s.in) != bodies {
		s.in = make([]bool, bodies)
		for _, b := range s.list {
			if int(b) < bodies {
				s.in[b] = true
			}
		}
	}
	for _, b := range set {
		if !s.in[b] {
			s.in[b] = true
			s.list = append(s.list, b)
		}
	}
}

// take appends the gathered bodies to dst and starts again.
func (s *replayedSince) take(dst []int32) ([]int32, int, bool) {
	dst = append(dst, s.list...)
	for _, b := range s.list {
		if int(b) < len(s.in) {
			s.in[b] = false
		}
	}
	n, full := s.n, s.full
	s.list, s.n, s.full = s.list[:0], 0, false
	return dst, n, full
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
