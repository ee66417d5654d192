package physics

import (
	"encoding/binary"
	"math"
)

// Layout returns a hash of what is fixed in the world: the engine's
// revision (EngineRevision), its configuration (every field but Workers,
// defaults filled in) and every body's definition (half extents, mass,
// friction, restitution, static), in body order. Two worlds with the same
// Layout and the same State evolve alike. It is how a record or a session
// checks that both ends built the same scene.
func (w *World) Layout() uint64 {
	var b []byte
	f := func(x float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x)) }
	c := &w.cfg
	b = binary.LittleEndian.AppendUint32(b, EngineRevision)
	for _, x := range []float64{c.Dt, c.Gravity.X, c.Gravity.Y, c.Gravity.Z, c.GroundFriction, c.Margin, c.Slop,
		c.RestitutionSpeed, c.AngularDamping, c.ContactHertz, c.ContactDamping, c.MaxPushSpeed, c.SleepSpeed} {
		f(x)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(c.Iterations))
	b = binary.LittleEndian.AppendUint32(b, uint32(c.MaxBodies))
	b = binary.LittleEndian.AppendUint32(b, uint32(c.SleepTicks))
	if c.NoSleep {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(w.shapes)))
	for i := range w.shapes {
		s := &w.shapes[i]
		for _, x := range []float64{s.half.X, s.half.Y, s.half.Z, s.mass, s.friction, s.restitution} {
			f(x)
		}
		if s.static {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return fnv1a(b)
}
