package wire

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// Word ranges of a body (physics' canonical order).
const (
	wordPos    = 0  // 3 words
	wordRot    = 3  // 4
	wordVel    = 7  // 3
	wordAngVel = 10 // 3
	wordRest   = 13 // force, torque and what follows: XOR-coded in both encodings
	restGroup  = 4  // the first of wordGroups from wordRest on
)

// sigBytes returns the number of bytes up to and including x's highest
// non-zero byte.
func sigBytes(x uint64) int { return (bits.Len64(x) + 7) >> 3 }

// wordGroups are the word ranges a body's XOR coding flags together:
// position, rotation, velocity, angular velocity, force, torque, and the
// rest count with the flags. A moving body changes the first four, a body
// between steps none of the others.
var wordGroups = [...]struct{ from, to int }{
	{wordPos, wordRot}, {wordRot, wordVel}, {wordVel, wordAngVel}, {wordAngVel, wordRest},
	{wordRest, wordRest + 3}, {wordRest + 3, wordRest + 6}, {wordRest + 6, physics.BodyWordCount},
}

// appendXOR appends the words of cur XOR base in the groups from group
// first on: a byte with a bit per group holding a non-zero word, the
// nibbles of those groups' words (two a byte, low first), then each
// word's significant bytes.
func appendXOR(b []byte, cur, base *[physics.BodyWordCount]uint64, first int) []byte {
	var x [physics.BodyWordCount]uint64
	var nib [physics.BodyWordCount]uint8
	mask := byte(0)
	for g := first; g < len(wordGroups); g++ {
		for k := wordGroups[g].from; k < wordGroups[g].to; k++ {
			x[k] = cur[k] ^ base[k]
			if nib[k] = uint8(sigBytes(x[k])); nib[k] != 0 {
				mask |= 1 << g
			}
		}
	}
	b = append(b, mask)
	half, odd := byte(0), false
	for g := first; g < len(wordGroups); g++ {
		if mask&(1<<g) == 0 {
			continue
		}
		for k := wordGroups[g].from; k < wordGroups[g].to; k++ {
			if odd {
				b = append(b, half|nib[k]<<4)
			} else {
				half = nib[k]
			}
			odd = !odd
		}
	}
	if odd {
		b = append(b, half)
	}
	// Each word's significant bytes: the whole word, little-endian, cut
	// back to them.
	for k := wordGroups[first].from; k < physics.BodyWordCount; k++ {
		if nib[k] != 0 {
			b = binary.LittleEndian.AppendUint64(b, x[k])
			b = b[:len(b)-8+int(nib[k])]
		}
	}
	return b
}

// xor reads what appendXOR wrote into w, against base.
func (r *reader) xor(w, base *[physics.BodyWordCount]uint64, first int) {
	mask := r.u8()
	if r.err == nil && (mask>>len(wordGroups) != 0 || mask&(1<<first-1) != 0) {
		r.fail(invalid("word group mask %#x", mask))
		return
	}
	var nib [physics.BodyWordCount]uint8
	var c byte
	odd := false
	for g := first; g < len(wordGroups) && r.err == nil; g++ {
		if mask&(1<<g) == 0 {
			continue
		}
		any := false
		for k := wordGroups[g].from; k < wordGroups[g].to; k++ {
			if odd {
				nib[k] = c >> 4
			} else {
				c = r.u8()
				nib[k] = c & 15
			}
			odd = !odd
			if nib[k] > 8 {
				r.fail(invalid("a word of %d bytes", nib[k]))
				return
			}
			any = any || nib[k] != 0
		}
		if !any && r.err == nil {
			r.fail(invalid("word group %d flagged, all its words unchanged", g)) // one encoding per value
		}
	}
	if odd && c>>4 != 0 && r.err == nil {
		r.fail(invalid("a nibble past the last word"))
	}
	for k := 0; k < physics.BodyWordCount && r.err == nil; k++ {
		if nib[k] == 0 {
			continue
		}
		p := r.bytes(int(nib[k]))
		var x uint64
		for j := range p {
			x |= uint64(p[j]) << (8 * j)
		}
		if len(p) > 0 && p[len(p)-1] == 0 {
			r.fail(invalid("a word with a zero top byte")) // one encoding per value
		}
		w[k] = base[k] ^ x
	}
}

// AppendBody appends body state cur as a delta against base, as a snapshot
// carries it after the body's gap: what it costs. It returns false,
// appending nothing, for a quantised encoding of a body off the grid.
func AppendBody(b []byte, cur, base *physics.BodyState, quantized bool) ([]byte, bool) {
	return appendBody(b, cur, base, quantized)
}

// appendBody appends body state cur as a delta against base, quantised or
// at full precision. It returns false, appending nothing, for a quantised
// encoding of a body that is not on the grid.
func appendBody(b []byte, cur, base *physics.BodyState, quantized bool) ([]byte, bool) {
	cw, bw := physics.BodyWords(cur), physics.BodyWords(base)
	if !quantized {
		return appendXOR(b, &cw, &bw, 0), true
	}
	rc, ok := game.EncodeRot(cur.Rot)
	rb, okb := game.EncodeRot(base.Rot)
	// EncodeRot compares with ==, which takes -0 for +0: check the bits of
	// what the decoder will compute.
	if !ok || !okb || !sameBitsQuat(rc.Quat(), cur.Rot) || !onGrid(cur) || !onGrid(base) {
		return b, false
	}
	grid := func(v, bv physics.Vec3, f func(float64) int32) {
		b = appendZigzag(b, f(v.X)-f(bv.X))
		b = appendZigzag(b, f(v.Y)-f(bv.Y))
		b = appendZigzag(b, f(v.Z)-f(bv.Z))
	}
	grid(cur.Pos, base.Pos, game.PosGrid)
	if rc.Largest == rb.Largest {
		b = append(b, rc.Largest|4)
		for j := range rc.K {
			b = appendZigzag(b, rc.K[j]-rb.K[j])
		}
	} else {
		b = append(b, rc.Largest)
		for j := range rc.K {
			b = appendZigzag(b, rc.K[j])
		}
	}
	grid(cur.Vel, base.Vel, game.VelGrid)
	grid(cur.AngVel, base.AngVel, game.VelGrid)
	return appendXOR(b, &cw, &bw, restGroup), true
}

// sameBitsQuat reports whether p and q hold the same bits.
func sameBitsQuat(p, q physics.Quat) bool {
	f := math.Float64bits
	return f(p.W) == f(q.W) && f(p.X) == f(q.X) && f(p.Y) == f(q.Y) && f(p.Z) == f(q.Z)
}

// onGrid reports whether b's position and velocities are on the grid, bit
// for bit: -0 is not (it would come back as +0), nor NaN (whose grid units
// differ between CPUs) nor infinities (clamped). The rotation is checked
// with EncodeRot.
func onGrid(b *physics.BodyState) bool {
	ok := func(x, units float64, f func(float64) int32) bool {
		return math.Float64bits(float64(f(x))/units) == math.Float64bits(x)
	}
	for _, c := range [...]struct {
		v     physics.Vec3
		units float64
		f     func(float64) int32
	}{{b.Pos, game.PosUnits, game.PosGrid}, {b.Vel, game.VelUnits, game.VelGrid}, {b.AngVel, game.VelUnits, game.VelGrid}} {
		if !ok(c.v.X, c.units, c.f) || !ok(c.v.Y, c.units, c.f) || !ok(c.v.Z, c.units, c.f) {
			return false
		}
	}
	return true
}

// body reads a body written by appendBody into cur, against base.
func (r *reader) body(cur, base *physics.BodyState, quantized bool) {
	bw := physics.BodyWords(base)
	w := bw
	if !quantized {
		r.xor(&w, &bw, 0)
		physics.SetBodyWords(cur, &w)
		return
	}
	// As the encoder, refuse a baseline off the grid: its grid units would
	// not be the encoder's, and those of a NaN differ between CPUs.
	if r.err == nil && !onGrid(base) {
		r.fail(invalid("a quantised body against a baseline off the grid"))
		return
	}
	vec := func(bv physics.Vec3, units float64, limit int32, f func(float64) int32) physics.Vec3 {
		var out [3]float64
		for j, x := range [3]float64{bv.X, bv.Y, bv.Z} {
			k := int64(f(x)) + int64(r.zigzag())
			if k > int64(limit) || k < -int64(limit) {
				r.fail(invalid("a grid value out of range"))
				return physics.Vec3{}
			}
			out[j] = float64(k) / units
		}
		return physics.Vec3{X: out[0], Y: out[1], Z: out[2]}
	}
	pos := vec(base.Pos, game.PosUnits, game.PosLimit, game.PosGrid)
	head := r.u8()
	var rc game.RotCode
	rc.Largest = head & 3
	if head&^7 != 0 {
		r.fail(invalid("rotation head %#x", head))
	}
	var rb game.RotCode
	if head&4 != 0 {
		var ok bool
		if rb, ok = game.EncodeRot(base.Rot); !ok || rb.Largest != rc.Largest {
			r.fail(invalid("a rotation delta against a baseline off the grid"))
		}
	}
	for j := range rc.K {
		k := int64(rb.K[j]) + int64(r.zigzag())
		if k > game.RotLimit || k < -game.RotLimit {
			r.fail(invalid("a rotation code out of range"))
		}
		rc.K[j] = int32(k)
	}
	vel := vec(base.Vel, game.VelUnits, game.VelLimit, game.VelGrid)
	ang := vec(base.AngVel, game.VelUnits, game.VelLimit, game.VelGrid)
	if r.err != nil {
		return
	}
	r.xor(&w, &bw, restGroup)
	q := rc.Quat()
	f := math.Float64bits
	w[wordPos], w[wordPos+1], w[wordPos+2] = f(pos.X), f(pos.Y), f(pos.Z)
	w[wordRot], w[wordRot+1], w[wordRot+2], w[wordRot+3] = f(q.W), f(q.X), f(q.Y), f(q.Z)
	w[wordVel], w[wordVel+1], w[wordVel+2] = f(vel.X), f(vel.Y), f(vel.Z)
	w[wordAngVel], w[wordAngVel+1], w[wordAngVel+2] = f(ang.X), f(ang.Y), f(ang.Z)
	physics.SetBodyWords(cur, &w)
}
