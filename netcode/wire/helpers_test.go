package wire

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// newRand returns a generator with a fixed seed, so that every run (and
// every CPU) sees the same cases.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// sentinel reports whether err is one of the decoders' sentinel errors.
func sentinel(err error) bool {
	for _, s := range []error{ErrShort, ErrKind, ErrVersion, ErrInvalid, ErrTooBig} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// negZero is -0.
var negZero = math.Copysign(0, -1)

// spec builds messages byte by byte from the layout in doc.go, independently
// of the package's encoders, so that tests can compare the two and craft
// invalid messages field by field.
type spec []byte

func msg(kind byte) spec { return spec{kind, Version} }

func (s spec) u8(v ...byte) spec { return append(s, v...) }
func (s spec) u16(v uint16) spec { return append(s, byte(v), byte(v>>8)) }
func (s spec) u32(v uint32) spec {
	return append(s, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}
func (s spec) u64(v uint64) spec  { return s.u32(uint32(v)).u32(uint32(v >> 32)) }
func (s spec) f64(x float64) spec { return s.u64(math.Float64bits(x)) }

// uv appends an unsigned LEB128 varint: seven bits a byte, low first, the
// high bit set on every byte but the last.
func (s spec) uv(v uint64) spec {
	for v >= 0x80 {
		s = append(s, byte(v)|0x80)
		v >>= 7
	}
	return append(s, byte(v))
}

// mask appends a non-zero ack mask: its byte count, 1 to 8, then that
// many bytes of it, low first, the last one not zero.
func (s spec) mask(m uint64) spec {
	var b []byte
	for ; m != 0; m >>= 8 {
		b = append(b, byte(m))
	}
	return append(s.u8(byte(len(b))), b...)
}

// zz appends a zigzag varint: 0, -1, 1, -2, ... map to 0, 1, 2, 3, ...
func (s spec) zz(v int32) spec {
	u := uint32(v) << 1
	if v < 0 {
		u = ^u
	}
	return s.uv(uint64(u))
}

// run appends one run of n inputs in: a byte with the input in its low six
// bits and min(n, 4)-1 in its high two, then n-4 as a uvarint when n >= 4.
func (s spec) run(in game.Input, n int) spec {
	if n < 4 {
		return append(s, byte(in)|byte(n-1)<<6)
	}
	return append(s, byte(in)|3<<6).uv(uint64(n - 4))
}

// inputs appends ins as maximal runs of equal inputs.
func (s spec) inputs(ins []game.Input) spec {
	for i := 0; i < len(ins); {
		j := i
		for j < len(ins) && ins[j] == ins[i] {
			j++
		}
		s = s.run(ins[i], j-i)
		i = j
	}
	return s
}

// specInput encodes m by doc.go (every input sent).
func specInput(m *Input) []byte {
	flags := m.Flags
	if m.Held != 0 {
		flags |= hasHeld
	}
	s := msg(KindInput).u8(m.Player, flags).u32(m.First).u16(uint16(len(m.Inputs))).uv(uint64(m.First - m.Ack)).uv(uint64(m.Ack - m.Base))
	if m.Held != 0 {
		s = s.mask(m.Held)
	}
	return s.inputs(m.Inputs)
}

// specIdentity encodes a scene identity by doc.go.
func (s spec) identity(id *game.Identity) spec {
	q := byte(0)
	if id.Quantize {
		q = 1
	}
	return s.u8(byte(len(id.Name))).u8([]byte(id.Name)...).u8(byte(id.Players)).u32(uint32(id.Bodies)).u8(q).u32(uint32(id.Rule)).u64(id.Hash)
}

// specRelay encodes m's first count ticks by doc.go.
func specRelay(m *Relay, count int) []byte {
	last := m.First + uint32(count)
	s := msg(KindRelay).u32(m.First).uv(uint64(count)).u64(m.Hash).zz(int32(m.Heard - last)).zz(int32(m.HeardInput - last)).u8(byte(m.Players))
	for p := 0; p < m.Players; p++ {
		s = s.inputs(m.Inputs[p*m.Count : p*m.Count+count])
	}
	var skips []Span
	for _, sp := range m.Skips {
		if int(sp.Offset) < count {
			skips = append(skips, Span{sp.Offset, min(sp.Len, uint32(count)-sp.Offset)})
		}
	}
	s = s.uv(uint64(len(skips)))
	end := uint32(0)
	for _, sp := range skips {
		s = s.uv(uint64(sp.Offset - end)).uv(uint64(sp.Len))
		end = sp.Offset + sp.Len
	}
	var evs []TickEvent
	for _, e := range m.Events {
		if int(e.Offset) < count {
			evs = append(evs, e)
		}
	}
	s = s.uv(uint64(len(evs)))
	for _, e := range evs {
		s = s.uv(uint64(e.Offset)).u8(byte(e.Event.Kind), e.Event.Player)
		if e.Event.Kind == game.Nudge {
			s = s.f64(e.Event.Impulse.X).f64(e.Event.Impulse.Y).f64(e.Event.Impulse.Z)
		}
	}
	return s
}

// xorWords appends words [from, N) of cur XOR base as doc.go says: a byte
// flagging the groups (pos 0-2, rot 3-6, vel 7-9, angvel 10-12, force
// 13-15, torque 16-18, rest and flags 19-20) with a non-zero word, a
// nibble per word of those groups (its significant bytes), two a byte low
// first, then the bytes, low first.
func (s spec) xorWords(cur, base *[physics.BodyWordCount]uint64, from int) spec {
	bounds := []int{0, 3, 7, 10, 13, 16, 19, 21}
	var n [physics.BodyWordCount]int
	var words []int // the words of the flagged groups
	mask := byte(0)
	for g := 0; g+1 < len(bounds); g++ {
		if bounds[g] < from {
			continue
		}
		any := false
		for k := bounds[g]; k < bounds[g+1]; k++ {
			for x := cur[k] ^ base[k]; x != 0; x >>= 8 {
				n[k]++
			}
			any = any || n[k] > 0
		}
		if any {
			mask |= 1 << g
			for k := bounds[g]; k < bounds[g+1]; k++ {
				words = append(words, k)
			}
		}
	}
	s = append(s, mask)
	for i := 0; i < len(words); i += 2 {
		c := byte(n[words[i]])
		if i+1 < len(words) {
			c |= byte(n[words[i+1]]) << 4
		}
		s = append(s, c)
	}
	for _, k := range words {
		x := cur[k] ^ base[k]
		for j := 0; j < n[k]; j++ {
			s = append(s, byte(x>>(8*j)))
		}
	}
	return s
}

// body appends cur against base by doc.go. Quantised bodies must be on the
// grid; the rotation is sent as a delta when both codes name the same
// largest component.
func (s spec) body(cur, base *physics.BodyState, quantized bool) spec {
	cw, bw := physics.BodyWords(cur), physics.BodyWords(base)
	if !quantized {
		return s.xorWords(&cw, &bw, 0)
	}
	units := func(x, per float64) int32 { return int32(x * per) } // exact on the grid
	vec := func(v, b physics.Vec3, per float64) {
		s = s.zz(units(v.X, per) - units(b.X, per)).zz(units(v.Y, per) - units(b.Y, per)).zz(units(v.Z, per) - units(b.Z, per))
	}
	vec(cur.Pos, base.Pos, game.PosUnits)
	rc, _ := game.EncodeRot(cur.Rot)
	rb, _ := game.EncodeRot(base.Rot)
	if rc.Largest == rb.Largest {
		s = s.u8(rc.Largest | 4).zz(rc.K[0] - rb.K[0]).zz(rc.K[1] - rb.K[1]).zz(rc.K[2] - rb.K[2])
	} else {
		s = s.u8(rc.Largest).zz(rc.K[0]).zz(rc.K[1]).zz(rc.K[2])
	}
	vec(cur.Vel, base.Vel, game.VelUnits)
	vec(cur.AngVel, base.AngVel, game.VelUnits)
	return s.xorWords(&cw, &bw, 13)
}

// specSnapshot encodes m by doc.go against the view base.
func specSnapshot(m *Snapshot, base []physics.BodyState) []byte {
	flags := m.Flags
	if m.AllChain == m.Chain {
		flags |= SameChains
	}
	if m.Acks != 0 {
		flags |= HasAcks
	}
	s := msg(KindSnapshot).u32(m.Tick).uv(uint64(m.Tick - m.Base)).u8(flags)
	if m.Acks != 0 {
		s = s.mask(m.Acks)
	}
	s = s.u64(m.Hash).u64(m.Chain)
	if flags&SameChains == 0 {
		s = s.u64(m.AllChain)
	}
	s = s.uv(uint64(m.Events)).uv(uint64(m.Skipped)).zz(int32(m.Heard - m.Tick)).zz(int32(m.HeardInput - m.Tick))
	s = s.u16(uint16(len(m.Bodies)))
	last := int32(-1)
	for i := range m.Bodies {
		u := &m.Bodies[i]
		s = s.uv(uint64(u.Index-last-1)).body(&u.State, &base[u.Index], m.Flags&Quantized != 0)
		last = u.Index
	}
	if m.Flags&HasContacts != 0 {
		s = s.u16(uint16(len(m.Contacts)))
		for _, c := range m.Contacts {
			s = s.uv(uint64(uint32(c.A))).uv(uint64(uint32(c.B + 1))).uv(uint64(c.Feature))
			s = s.f64(c.Pn).f64(c.Pt1).f64(c.Pt2)
		}
	}
	return s
}

// randInputs returns n inputs in runs of random lengths (often 1, sometimes
// long), every input valid.
func randInputs(r *rand.Rand, n int) []game.Input {
	ins := make([]game.Input, 0, n)
	for len(ins) < n {
		in := game.Input(r.IntN(int(game.InputMask) + 1))
		l := 1
		switch r.IntN(4) {
		case 1:
			l = 1 + r.IntN(6)
		case 2:
			l = 1 + r.IntN(300)
		}
		for k := 0; k < l && len(ins) < n; k++ {
			ins = append(ins, in)
		}
	}
	return ins
}

// randFloat returns an interesting finite float64: small integers, -0,
// tiny and huge magnitudes, or random bits that are not NaN.
func randFloat(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return 0
	case 1:
		return negZero
	case 2:
		return float64(r.IntN(21) - 10)
	case 3:
		return math.SmallestNonzeroFloat64 * float64(1-2*r.IntN(2))
	case 4:
		return math.MaxFloat64 * float64(1-2*r.IntN(2))
	case 5:
		return r.NormFloat64() * 10
	}
	for {
		if x := math.Float64frombits(r.Uint64()); !math.IsNaN(x) && !math.IsInf(x, 0) {
			return x
		}
	}
}

// randState returns a body state with random words (no NaN), sometimes
// infinite ones.
func randState(r *rand.Rand) physics.BodyState {
	var w [physics.BodyWordCount]uint64
	for k := range w {
		x := randFloat(r)
		if r.IntN(40) == 0 {
			x = math.Inf(1 - 2*r.IntN(2))
		}
		w[k] = math.Float64bits(x)
	}
	var b physics.BodyState
	physics.SetBodyWords(&b, &w)
	return b
}

// nearState returns base with a few words changed a little, as a moving
// body changes between snapshots.
func nearState(r *rand.Rand, base *physics.BodyState) physics.BodyState {
	w := physics.BodyWords(base)
	for n := r.IntN(5); n > 0; n-- {
		k := r.IntN(len(w))
		w[k] ^= uint64(1+r.IntN(1<<16)) << (r.IntN(4) * 8)
	}
	var b physics.BodyState
	physics.SetBodyWords(&b, &w)
	return b
}

// randUnitQuat returns a random unit quaternion.
func randUnitQuat(r *rand.Rand) physics.Quat {
	for {
		q := physics.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
		n := math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z)
		if n > 1e-3 {
			return physics.Quat{W: q.W / n, X: q.X / n, Y: q.Y / n, Z: q.Z / n}
		}
	}
}

// randGridState returns a random body put on the grid by game.QuantizeBody,
// with random force and torque (sent as XOR words), positions and
// velocities sometimes beyond the grid's limits (clamped).
func randGridState(r *rand.Rand) physics.BodyState {
	v := func(scale float64) physics.Vec3 {
		return physics.Vec3{X: r.NormFloat64() * scale, Y: r.NormFloat64() * scale, Z: r.NormFloat64() * scale}
	}
	ps, vs := 20.0, 5.0
	if r.IntN(20) == 0 {
		ps, vs = 1e4, 200
	}
	b := physics.BodyState{Pos: v(ps), Rot: randUnitQuat(r), Vel: v(vs), AngVel: v(vs), Force: v(100), Torque: v(10)}
	if r.IntN(4) == 0 {
		b.Vel, b.AngVel = physics.Vec3{}, physics.Vec3{}
	}
	game.QuantizeBody(&b)
	return b
}

// nearGridState returns base moved a little on the grid.
func nearGridState(r *rand.Rand, base *physics.BodyState) physics.BodyState {
	b := *base
	d := func() float64 { return float64(r.IntN(41)-20) / 1024 }
	b.Pos = physics.Vec3{X: b.Pos.X + d(), Y: b.Pos.Y + d(), Z: b.Pos.Z + d()}
	b.Vel = physics.Vec3{X: b.Vel.X + d(), Y: b.Vel.Y, Z: b.Vel.Z - d()}
	q := b.Rot
	b.Rot = physics.Quat{W: q.W + d()/8, X: q.X - d()/8, Y: q.Y + d()/8, Z: q.Z}
	game.QuantizeBody(&b)
	return b
}

// sameBits reports whether two body states hold the same bits.
func sameBits(a, b *physics.BodyState) bool { return physics.BodyWords(a) == physics.BodyWords(b) }

// sameContact reports whether two contacts hold the same bits.
func sameContact(a, b *physics.ContactState) bool {
	return physics.ContactWords(a) == physics.ContactWords(b)
}

// randContact returns a contact entry with random fields (B may be the
// ground, A and B may be beyond any world: the wire does not judge them).
func randContact(r *rand.Rand) physics.ContactState {
	c := physics.ContactState{
		A: int32(r.IntN(1000)), B: int32(r.IntN(1001)) - 1, Feature: uint32(r.IntN(16)),
		Pn: randFloat(r), Pt1: randFloat(r), Pt2: randFloat(r),
	}
	if r.IntN(10) == 0 {
		c.A, c.B, c.Feature = int32(r.Uint32()), int32(r.Uint32()), r.Uint32()
	}
	return c
}
