package physics

import "math"

// The stage hashes a world records every step (HashStages) hash, after
// each stage, only the tracked values that stage may write, where a
// StageTrace hashes all of them: the first stage whose hash differs
// between two machines is the first that wrote a value that differs,
// which is the first stage whose trace hash differs, at the cost of the
// stage's own writes instead of the whole state's (a fiftieth of a trace
// on the cubes scene). TestStageWritesCoverTheTrace checks that every
// value a trace finds changed by a stage is among those it hashes.
//
//	activate                   the active bodies' poses and velocities
//	pairs                      the pairs
//	contacts                   each contact's normal, friction and twist
//	                           impulses, its points' features, separations
//	                           and normal impulses
//	colours                    each contact's colour
//	integrate velocities       the velocities of the stage's bodies
//	warm start, solve, relax,  the impulses of the stage's contacts and
//	restitution                the velocities of their moving bodies
//	integrate positions        the poses of the stage's bodies
//	separations                the separations of the stage's contacts
//	redo, heavy, shock         every contact's values and every active
//	                           body's pose and velocity (serial stages)
//	store                      the contact cache, the active bodies'
//	                           velocities, rest counts and flags
//	sleep                      the active bodies' velocities, rest counts
//	                           and flags

// stageWrites hashes what stage name (s for the solver's stages, nil for
// the others) may write, into sk.
func (w *World) stageWrites(sk *traceSink, t *stageTracer, name string, s *stage) {
	f := math.Float64bits
	c := &w.ctx
	bodyPose := func(k int) {
		i := c.active[k]
		b := &w.st.Bodies[i]
		for n, v := range [...]float64{b.Pos.X, b.Pos.Y, b.Pos.Z, b.Rot.W, b.Rot.X, b.Rot.Y, b.Rot.Z} {
			sk.put(traceKey{kind: 0, a: i, field: uint8(n)}, f(v))
		}
	}
	bodyVel := func(k int) {
		if k < 0 || k >= len(c.vel) {
			return
		}
		v := &c.vel[k]
		for n, x := range [...]float64{v.v.X, v.v.Y, v.v.Z, v.w.X, v.w.Y, v.w.Z} {
			sk.put(traceKey{kind: 0, a: c.active[k], field: uint8(7 + n)}, f(x))
		}
	}
	impulses := func(ci int32) {
		cn := &c.cons[ci]
		ck := traceKey{kind: 2, a: cn.a, b: cn.b}
		for n, v := range [...]float64{cn.f1.p, cn.f2.p, cn.ptw} {
			ck.field = uint8(tfNormal + 3 + n)
			sk.put(ck, f(v))
		}
		for j := range cn.count {
			sk.put(traceKey{kind: 3, a: cn.a, b: cn.b, point: uint32(j), field: tfPn}, f(c.pts[cn.first+j].pn))
		}
	}
	contact := func(ci int32) {
		cn := &c.cons[ci]
		ck := traceKey{kind: 2, a: cn.a, b: cn.b}
		for n, v := range [...]float64{cn.d.X, cn.d.Y, cn.d.Z, cn.f1.p, cn.f2.p, cn.ptw} {
			ck.field = uint8(tfNormal + n)
			sk.put(ck, f(v))
		}
		for j := range cn.count {
			pk := traceKey{kind: 3, a: cn.a, b: cn.b, point: uint32(j)}
			pk.field = tfFeature
			sk.put(pk, uint64(c.info[cn.first+j].feature))
			pk.field = tfSep
			sk.put(pk, f(c.pts[cn.first+j].s))
			pk.field = tfPn
			sk.put(pk, f(c.pts[cn.first+j].pn))
		}
	}
	if s != nil {
		switch s.kind {
		case stageIntVel:
			for k := s.lo; k < s.hi; k++ {
				bodyVel(int(k))
			}
		case stageIntPos:
			for k := s.lo; k < s.hi; k++ {
				bodyPose(int(k))
			}
		case stageWarm, stageSolve, stageRelax, stageRestitute:
			for _, ci := range c.graph.list[s.lo:s.hi] {
				impulses(ci)
				bodyVel(int(c.cons[ci].s1))
				bodyVel(int(c.cons[ci].s2))
			}
		case stageSep:
			for ci := s.lo; ci < s.hi; ci++ {
				cn := &c.cons[ci]
				for j := range cn.count {
					sk.put(traceKey{kind: 3, a: cn.a, b: cn.b, point: uint32(j), field: tfSep}, f(c.pts[cn.first+j].s))
				}
			}
		default: // redo, heavy, shock: serial, anywhere
			for ci := range c.cons {
				contact(int32(ci))
			}
			for k := range c.active {
				bodyPose(k)
				bodyVel(k)
			}
		}
		return
	}
	switch name {
	case "activate":
		for k := range c.active {
			bodyPose(k)
			bodyVel(k)
		}
	case "pairs":
		for _, p := range c.pairs.list {
			sk.put(traceKey{kind: 1, a: int32(p >> 32), b: int32(uint32(p)), field: tfFound}, 1)
		}
	case "contacts":
		for ci := range c.cons {
			contact(int32(ci))
		}
	case "colours":
		for ci, k := range t.colourOf {
			cn := &c.cons[ci]
			sk.put(traceKey{kind: 2, a: cn.a, b: cn.b, field: tfColour}, uint64(k))
		}
	case "store", "sleep":
		for k := range c.active {
			bodyVel(k)
		}
		w.traceRest(sk)
		if name == "sleep" {
			return
		}
		w.traceCache(sk)
	}
}
