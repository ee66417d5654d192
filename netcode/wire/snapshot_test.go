package wire

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/physics"
)

// writeSnapshot writes h's bodies (against base) and contacts with a
// SnapshotWriter until one does not fit in limit bytes, and returns the
// message and the snapshot it stands for.
func writeSnapshot(t testing.TB, h *Snapshot, base []physics.BodyState, limit int, complete, contactsComplete bool) ([]byte, Snapshot) {
	t.Helper()
	var w SnapshotWriter
	w.Begin(nil, h)
	sent := *h
	sent.Flags &= Quantized
	sent.Bodies, sent.Contacts = []BodyUpdate{}, []physics.ContactState{}
	for i := range h.Bodies {
		u := &h.Bodies[i]
		ok, grid := w.Body(u.Index, &u.State, &base[u.Index], limit)
		if !grid {
			t.Fatalf("body %d refused as off the grid", u.Index)
		}
		if !ok {
			break
		}
		sent.Bodies = append(sent.Bodies, *u)
	}
	called := false
	for i := range h.Contacts {
		called = true
		if !w.Contact(&h.Contacts[i], limit) {
			break
		}
		sent.Contacts = append(sent.Contacts, h.Contacts[i])
	}
	b := w.Finish(complete, contactsComplete)
	if complete {
		sent.Flags |= Complete
	}
	if called && len(sent.Contacts) > 0 {
		sent.Flags |= HasContacts
		if contactsComplete {
			sent.Flags |= ContactsComplete
		}
	}
	return b, sent
}

// snapshotDiff returns how a and b differ ("" if they hold the same bits).
func snapshotDiff(a, b *Snapshot) string {
	switch {
	case a.Tick != b.Tick || a.Base != b.Base || a.Acks != b.Acks || a.Hash != b.Hash || a.Chain != b.Chain ||
		a.Events != b.Events || a.Skipped != b.Skipped || a.Heard != b.Heard:
		return "header"
	case a.Flags != b.Flags:
		return "flags"
	case len(a.Bodies) != len(b.Bodies):
		return "body count"
	case len(a.Contacts) != len(b.Contacts):
		return "contact count"
	}
	for i := range a.Bodies {
		if a.Bodies[i].Index != b.Bodies[i].Index || !sameBits(&a.Bodies[i].State, &b.Bodies[i].State) {
			return "body"
		}
	}
	for i := range a.Contacts {
		if !sameContact(&a.Contacts[i], &b.Contacts[i]) {
			return "contact"
		}
	}
	return ""
}

// randSnapshot returns a snapshot header with random fields and some of
// base's bodies changed: in increasing index order, the first and the last
// body among them sometimes.
func randSnapshot(r *rand.Rand, base []physics.BodyState, quantized bool) *Snapshot {
	h := &Snapshot{Tick: r.Uint32(), Base: r.Uint32(), Hash: r.Uint64(), Chain: r.Uint64(), AllChain: r.Uint64(),
		Events: r.Uint32() >> r.IntN(32), Skipped: r.Uint32() >> r.IntN(32), Heard: r.Uint32(), HeardInput: r.Uint32()}
	if quantized {
		h.Flags = Quantized
	}
	if r.IntN(2) == 0 {
		h.Acks = r.Uint64() >> r.IntN(64)
	}
	for i := range base {
		if r.IntN(3) != 0 && i != 0 && i != len(base)-1 {
			continue
		}
		var s physics.BodyState
		switch k := r.IntN(4); {
		case k == 0:
			s = base[i]
		case quantized && k == 1:
			s = randGridState(r)
		case quantized:
			s = nearGridState(r, &base[i])
		case k == 1:
			s = randState(r)
		default:
			s = nearState(r, &base[i])
		}
		h.Bodies = append(h.Bodies, BodyUpdate{int32(i), s})
	}
	for n := r.IntN(4) * r.IntN(6); n > 0; n-- {
		h.Contacts = append(h.Contacts, randContact(r))
	}
	return h
}

// randBase returns a view of n bodies, on the grid or random.
func randBase(r *rand.Rand, n int, quantized bool) []physics.BodyState {
	base := make([]physics.BodyState, n)
	for i := range base {
		if quantized {
			base[i] = randGridState(r)
		} else {
			base[i] = randState(r)
		}
	}
	return base
}

func TestSnapshotRoundTrip(t *testing.T) {
	r := newRand(31)
	var got Snapshot
	for _, quantized := range []bool{false, true} {
		for k := 0; k < 300; k++ {
			base := randBase(r, 1+r.IntN(60), quantized)
			h := randSnapshot(r, base, quantized)
			complete, cc := r.IntN(2) == 0, r.IntN(2) == 0
			b, sent := writeSnapshot(t, h, base, MaxMessage, complete, cc)
			if want := specSnapshot(&sent, base); !bytes.Equal(b, want) {
				t.Fatalf("quantized %v, case %d: encoded\n%x\nwant (doc.go)\n%x", quantized, k, b, want)
			}
			if err := DecodeSnapshot(b, &got, base); err != nil {
				t.Fatalf("quantized %v, case %d: %v", quantized, k, err)
			}
			if d := snapshotDiff(&got, &sent); d != "" {
				t.Fatalf("quantized %v, case %d: decoded snapshot differs: %s", quantized, k, d)
			}
			tick, baseTick, acks, err := SnapshotBase(b)
			if err != nil || tick != h.Tick || baseTick != h.Base || acks != h.Acks {
				t.Errorf("SnapshotBase: %d %d %#x %v, want %d %d %#x", tick, baseTick, acks, err, h.Tick, h.Base, h.Acks)
			}
			tick, heard, heardInput, err := SnapshotHead(b)
			if err != nil || tick != h.Tick || heard != h.Heard || heardInput != h.HeardInput {
				t.Errorf("SnapshotHead: %d %d %d %v, want %d %d %d", tick, heard, heardInput, err, h.Tick, h.Heard, h.HeardInput)
			}
		}
	}
}

// Values the wire does not judge come back with their bits: -0, the
// infinities, subnormals, against a baseline of other such values.
func TestSnapshotOddValues(t *testing.T) {
	odd := []float64{0, negZero, math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, -math.MaxFloat64, 1, -1}
	var base []physics.BodyState
	var h Snapshot
	for i, x := range odd {
		for j, y := range odd {
			var c, b [physics.BodyWordCount]uint64
			for k := range c {
				c[k], b[k] = math.Float64bits(x), math.Float64bits(y)
			}
			var cs, bs physics.BodyState
			physics.SetBodyWords(&cs, &c)
			physics.SetBodyWords(&bs, &b)
			base = append(base, bs)
			h.Bodies = append(h.Bodies, BodyUpdate{int32(i*len(odd) + j), cs})
		}
	}
	var got Snapshot
	for start := 0; start < len(h.Bodies); {
		part := h
		part.Bodies = h.Bodies[start:]
		b, sent := writeSnapshot(t, &part, base, MaxMessage, false, false)
		if err := DecodeSnapshot(b, &got, base); err != nil {
			t.Fatal(err)
		}
		if d := snapshotDiff(&got, &sent); d != "" {
			t.Fatalf("decoded snapshot differs: %s", d)
		}
		start += len(sent.Bodies)
	}
}

// A quantised snapshot refuses a body off the grid, leaving the message as
// it was.
func TestSnapshotOffGrid(t *testing.T) {
	r := newRand(32)
	on := randGridState(r)
	base := randGridState(r)
	off := func(f func(b *physics.BodyState)) physics.BodyState {
		b := on
		f(&b)
		return b
	}
	nan := math.NaN()
	cases := []struct {
		name      string
		cur, base physics.BodyState
	}{
		{"position between grid points", off(func(b *physics.BodyState) { b.Pos.Y += 0.5 / game.PosUnits }), base},
		{"velocity between grid points", off(func(b *physics.BodyState) { b.Vel.X += 0.25 / game.VelUnits }), base},
		{"angular velocity off", off(func(b *physics.BodyState) { b.AngVel.Z = math.Nextafter(b.AngVel.Z, 100) }), base},
		{"rotation not quantised", off(func(b *physics.BodyState) { b.Rot = randUnitQuat(r) }), base},
		{"rotation one ulp off", off(func(b *physics.BodyState) { b.Rot.X = math.Nextafter(b.Rot.X, 2) }), base},
		{"position -0", off(func(b *physics.BodyState) { b.Pos.X = negZero }), base},
		{"velocity -0", off(func(b *physics.BodyState) { b.Vel.Y = negZero }), base},
		{"angular velocity -0", off(func(b *physics.BodyState) { b.AngVel.Z = negZero }), base},
		{"rotation with -0", off(func(b *physics.BodyState) { b.Rot = physics.Quat{W: 1, X: negZero} }), base},
		{"position NaN", off(func(b *physics.BodyState) { b.Pos.X = nan }), base},
		{"position +Inf", off(func(b *physics.BodyState) { b.Pos.X = math.Inf(1) }), base},
		{"velocity past the limit", off(func(b *physics.BodyState) { b.Vel.X = 2 * game.VelLimit / game.VelUnits }), base},
		{"position past the limit", off(func(b *physics.BodyState) { b.Pos.Z = -2 * game.PosLimit / game.PosUnits }), base},
		{"baseline off the grid", on, off(func(b *physics.BodyState) { b.Pos.X += 1e-9 })},
		{"baseline rotation off the grid", on, off(func(b *physics.BodyState) { b.Rot = randUnitQuat(r) })},
		{"baseline position NaN", on, off(func(b *physics.BodyState) { b.Pos.X = nan })},
	}
	for _, c := range cases {
		var w SnapshotWriter
		w.Begin([]byte("head"), &Snapshot{Flags: Quantized})
		w.Body(0, &on, &base, MaxMessage)
		before := slices.Clone(w.b)
		ok, grid := w.Body(1, &c.cur, &c.base, MaxMessage)
		if ok || grid {
			t.Errorf("%s: Body = %v, %v; want false, false", c.name, ok, grid)
		}
		if !bytes.Equal(w.b, before) {
			t.Errorf("%s: the message changed", c.name)
		}
		// The same body at full precision is taken.
		var full SnapshotWriter
		full.Begin(nil, &Snapshot{})
		if ok, grid := full.Body(0, &c.cur, &c.base, MaxMessage); !ok || !grid {
			t.Errorf("%s: refused at full precision", c.name)
		}
	}
	// A body on the grid of which QuantizeBody makes -0 is not one: it
	// never does.
	for k := 0; k < 1000; k++ {
		b := physics.BodyState{Pos: physics.Vec3{X: -1e-9, Y: negZero, Z: -0.4 / game.PosUnits}, Rot: physics.Quat{W: -1, X: negZero},
			Vel: physics.Vec3{X: -1e-12, Y: negZero}, AngVel: physics.Vec3{Z: -0.1 / game.VelUnits}}
		game.QuantizeBody(&b)
		var w SnapshotWriter
		w.Begin(nil, &Snapshot{Flags: Quantized})
		if ok, grid := w.Body(0, &b, &base, MaxMessage); !ok || !grid {
			t.Fatalf("QuantizeBody's %+v refused", b)
		}
	}
}

// A quantised body decoded against a baseline off the grid is refused on
// every CPU (game.PosGrid(NaN) is -2³¹ on amd64 and 0 on arm64).
func TestSnapshotDecodeOffGridBaseline(t *testing.T) {
	r := newRand(33)
	base := []physics.BodyState{randGridState(r)}
	cur := base[0]
	var w SnapshotWriter
	w.Begin(nil, &Snapshot{Flags: Quantized})
	if ok, _ := w.Body(0, &cur, &base[0], MaxMessage); !ok {
		t.Fatal("refused")
	}
	b := w.Finish(true, false)
	for _, c := range []struct {
		name string
		f    func(b *physics.BodyState)
	}{
		{"NaN position", func(b *physics.BodyState) { b.Pos.X = math.NaN() }},
		{"NaN velocity", func(b *physics.BodyState) { b.Vel.Y = math.NaN() }},
		{"NaN angular velocity", func(b *physics.BodyState) { b.AngVel.Z = math.NaN() }},
		{"infinite position", func(b *physics.BodyState) { b.Pos.X = math.Inf(-1) }},
		{"position between grid points", func(b *physics.BodyState) { b.Pos.Z += 0.5 / game.PosUnits }},
		{"position -0", func(b *physics.BodyState) { b.Pos.Z = negZero }},
	} {
		bad := slices.Clone(base)
		c.f(&bad[0])
		var m Snapshot
		if err := DecodeSnapshot(b, &m, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", c.name, err)
		}
	}
}

// The writer stops exactly at its limit: a body or a contact that would
// pass it is not added and leaves the message as it was; one that reaches
// it exactly is added.
func TestSnapshotWriterLimit(t *testing.T) {
	r := newRand(34)
	for _, quantized := range []bool{false, true} {
		for k := 0; k < 200; k++ {
			base := randBase(r, 40, quantized)
			h := randSnapshot(r, base, quantized)
			for n := r.IntN(40); n > 0; n-- {
				h.Contacts = append(h.Contacts, randContact(r))
			}
			limit := 64 + r.IntN(MaxMessage+100) // above the header; sometimes over MaxMessage: MaxMessage holds
			var w SnapshotWriter
			w.Begin(nil, h)
			// probe returns the size of w's message with one more item, or
			// a size over MaxMessage if it does not fit in MaxMessage.
			probe := func(add func(p *SnapshotWriter) bool) int {
				p := w
				p.b = slices.Clone(w.b)
				if !add(&p) {
					return MaxMessage + 1
				}
				return p.Len()
			}
			try := func(what string, add func(p *SnapshotWriter, limit int) bool) bool {
				need := probe(func(p *SnapshotWriter) bool { return add(p, MaxMessage) })
				before := slices.Clone(w.b)
				if need > min(limit, MaxMessage) {
					lim := limit
					if r.IntN(2) == 0 {
						lim = min(need-1, limit)
					}
					if add(&w, lim) {
						t.Fatalf("%s of %d bytes added under a limit of %d", what, need, lim)
					}
					if !bytes.Equal(w.b, before) {
						t.Fatalf("%s refused, but the message changed", what)
					}
					return false
				}
				if !add(&w, need) {
					t.Fatalf("%s refused with the limit at the size it needs (%d)", what, need)
				}
				if w.Len() != need {
					t.Fatalf("%s: %d bytes, the probe said %d", what, w.Len(), need)
				}
				return true
			}
			nb := 0
			for i := range h.Bodies {
				u := &h.Bodies[i]
				if !try("a body", func(p *SnapshotWriter, limit int) bool {
					ok, _ := p.Body(u.Index, &u.State, &base[u.Index], limit)
					return ok
				}) {
					break
				}
				nb++
			}
			nc := 0
			for i := range h.Contacts {
				if !try("a contact", func(p *SnapshotWriter, limit int) bool { return p.Contact(&h.Contacts[i], limit) }) {
					break
				}
				nc++
			}
			b := w.Finish(true, true)
			if len(b) > limit || len(b) > MaxMessage {
				t.Fatalf("%d bytes under a limit of %d", len(b), limit)
			}
			var m Snapshot
			if err := DecodeSnapshot(b, &m, base); err != nil {
				t.Fatal(err)
			}
			if len(m.Bodies) != nb || len(m.Contacts) != nc {
				t.Fatalf("decoded %d bodies and %d contacts, want %d and %d", len(m.Bodies), len(m.Contacts), nb, nc)
			}
		}
	}
}

// The first contact that does not fit takes its count's two bytes back:
// a message one byte under the limit stays under it.
func TestSnapshotFirstContactOverLimit(t *testing.T) {
	base := make([]physics.BodyState, 1)
	var w SnapshotWriter
	w.Begin(nil, &Snapshot{})
	limit := w.Len() + 1
	c := physics.ContactState{A: 0, B: -1}
	if w.Contact(&c, limit) {
		t.Fatal("a contact fitted in one byte")
	}
	b := w.Finish(true, true)
	if len(b) > limit {
		t.Errorf("%d bytes, limit %d", len(b), limit)
	}
	var m Snapshot
	if err := DecodeSnapshot(b, &m, base); err != nil {
		t.Fatal(err)
	}
	if m.Flags != Complete {
		t.Errorf("flags %#x, want Complete only", m.Flags)
	}
	// At MaxMessage: a message of 1199 bytes must not become 1201.
	w.Begin(nil, &Snapshot{})
	var zero physics.BodyState
	var bodies []physics.BodyState
	add := func(size int) { // a body of size bytes with its gap
		s := bodyOfSize(size - 1)
		if ok, _ := w.Body(int32(len(bodies)), &s, &zero, MaxMessage); !ok {
			t.Fatalf("a body of %d bytes refused at %d bytes", size, w.Len())
		}
		bodies = append(bodies, zero)
	}
	// Bodies of the largest size, then two to fill the message to one
	// byte short of MaxMessage (every size from 4 up can be made).
	const largest = 1 + 1 + (physics.BodyWordCount+1)/2 + maxBodyPayload
	for MaxMessage-1-w.Len() > 2*largest {
		add(largest)
	}
	rest := MaxMessage - 1 - w.Len()
	add(rest / 2)
	add(rest - rest/2)
	if w.Len() != MaxMessage-1 {
		t.Fatalf("%d bytes", w.Len())
	}
	if w.Contact(&c, MaxMessage) {
		t.Fatal("a contact fitted in one byte")
	}
	b = w.Finish(false, false)
	if len(b) != MaxMessage-1 {
		t.Errorf("%d bytes, want %d", len(b), MaxMessage-1)
	}
	if err := DecodeSnapshot(b, &m, bodies); err != nil {
		t.Error(err)
	}
}

// bodyOfSize returns a body whose full-precision encoding against the zero
// baseline takes size bytes (1, or 3 and more): the group mask, the nibbles
// of the first groups, enough of them for size, then words of 1 to 8
// bytes, at least one byte in each group.
// wordBytes is the most bytes word k of a body can take: eight for the
// float64 words, four for the rest count (a uint32), one for the flags.
func wordBytes(k int) int {
	switch k {
	case physics.BodyWordCount - 2:
		return 4
	case physics.BodyWordCount - 1:
		return 1
	}
	return 8
}

// maxBodyPayload is the most bytes a full-precision body's words take.
const maxBodyPayload = 8*(physics.BodyWordCount-2) + 4 + 1

func bodyOfSize(size int) physics.BodyState {
	bounds := []int{0, 3, 7, 10, 13, 16, 19, 21}
	var w [physics.BodyWordCount]uint64
	var b physics.BodyState
	if size <= 1 {
		return b // the mask alone
	}
	// The fewest groups whose words can hold size bytes.
	g := 1
	for ; g < len(bounds)-1; g++ {
		most := 1 + (bounds[g]+1)/2
		for k := 0; k < bounds[g]; k++ {
			most += wordBytes(k)
		}
		if size <= most {
			break
		}
	}
	extra := size - 1 - (bounds[g]+1)/2 - g // beyond one byte a group
	for j := 0; j < g; j++ {
		for k := bounds[j]; k < bounds[j+1]; k++ {
			n, room := 0, wordBytes(k)
			if k == bounds[j] {
				n, room = 1, room-1 // the group's first word carries its one byte
			}
			add := min(extra, room)
			extra -= add
			if n += add; n > 0 {
				w[k] = 1 << (8 * (n - 1))
			}
		}
	}
	physics.SetBodyWords(&b, &w)
	return b
}

// Body refuses an index not above the last one's, and any body after the
// first contact.
func TestSnapshotWriterOrder(t *testing.T) {
	var s physics.BodyState
	var w SnapshotWriter
	w.Begin(nil, &Snapshot{})
	for _, c := range []struct {
		i    int32
		want bool
	}{{-1, false}, {math.MinInt32, false}, {3, true}, {3, false}, {2, false}, {4, true}, {100, true}} {
		if ok, grid := w.Body(c.i, &s, &s, MaxMessage); ok != c.want || !grid {
			t.Errorf("Body(%d) = %v, %v; want %v", c.i, ok, grid, c.want)
		}
	}
	c := physics.ContactState{}
	if !w.Contact(&c, MaxMessage) {
		t.Fatal("contact refused")
	}
	if ok, _ := w.Body(200, &s, &s, MaxMessage); ok {
		t.Error("a body after a contact")
	}
	base := make([]physics.BodyState, 101)
	var m Snapshot
	if err := DecodeSnapshot(w.Finish(true, false), &m, base); err != nil {
		t.Fatal(err)
	}
	var idx []int32
	for _, u := range m.Bodies {
		idx = append(idx, u.Index)
	}
	if !slices.Equal(idx, []int32{3, 4, 100}) || len(m.Contacts) != 1 {
		t.Errorf("bodies %v, %d contacts", idx, len(m.Contacts))
	}
}

// Finish sets the counts and the flags: Complete and ContactsComplete as
// told, HasContacts when contacts were added, Quantized from Begin, nothing
// else from the header's flags.
func TestSnapshotFinishFlags(t *testing.T) {
	base := corpusBase
	for _, quantized := range []bool{false, true} {
		for _, complete := range []bool{false, true} {
			for _, cc := range []bool{false, true} {
				for _, contacts := range []int{0, 1, 3} {
					h := Snapshot{Flags: 0xff &^ Quantized}
					want := uint8(0)
					if quantized {
						h.Flags, want = 0xff, Quantized
					}
					var w SnapshotWriter
					w.Begin(nil, &h)
					w.Body(1, &base[1], &base[1], MaxMessage)
					w.Body(4, &base[4], &base[4], MaxMessage)
					for k := 0; k < contacts; k++ {
						w.Contact(&physics.ContactState{A: int32(k)}, MaxMessage)
					}
					if complete {
						want |= Complete
					}
					if contacts > 0 {
						want |= HasContacts
						if cc {
							want |= ContactsComplete
						}
					}
					var m Snapshot
					if err := DecodeSnapshot(w.Finish(complete, cc), &m, base); err != nil {
						t.Fatal(err)
					}
					if m.Flags != want || len(m.Bodies) != 2 || len(m.Contacts) != contacts {
						t.Errorf("quantized %v complete %v cc %v contacts %d: flags %#x, %d bodies, %d contacts; want flags %#x",
							quantized, complete, cc, contacts, m.Flags, len(m.Bodies), len(m.Contacts), want)
					}
				}
			}
		}
	}
}

func TestSnapshotBaseErrors(t *testing.T) {
	b := corpusSnapshot(false, false)
	// Kind, version, the tick, the baseline's distance (one byte here) and
	// the flags (no ack mask).
	for n := 0; n < 8; n++ {
		if _, _, _, err := SnapshotBase(b[:n]); !errors.Is(err, ErrShort) {
			t.Errorf("SnapshotBase of %d bytes: %v", n, err)
		}
	}
	for n := 0; n < 8; n++ {
		if _, _, _, err := SnapshotHead(b[:n]); !errors.Is(err, ErrShort) {
			t.Errorf("SnapshotHead of %d bytes: %v", n, err)
		}
	}
	if tick, base, _, err := SnapshotBase(b[:8]); err != nil || tick != 1000 || base != 990 {
		t.Errorf("SnapshotBase of the first 8 bytes: %d, %d, %v", tick, base, err)
	}
	for _, m := range validMessages() {
		if m.b[0] != KindSnapshot {
			if _, _, _, err := SnapshotBase(m.b); !errors.Is(err, ErrInvalid) {
				t.Errorf("SnapshotBase(%s): %v", m.name, err)
			}
		}
	}
}

func TestSnapshotInvalid(t *testing.T) {
	base := corpusBase // 6 bodies on the grid
	head := func(flags byte, bodies uint16) spec {
		return msg(KindSnapshot).u32(10).uv(1).u8(flags).u64(1).u64(2).u64(6).uv(3).uv(4).zz(5).zz(-1).u16(bodies)
	}
	var zeros [physics.BodyWordCount]uint64
	same := spec{}.xorWords(&zeros, &zeros, 0) // a full-precision body equal to its baseline
	// qbody is a quantised body with the given rotation head and codes,
	// position and velocity deltas pos and vel, equal to its baseline
	// otherwise.
	qbody := func(head byte, k [3]int32, pos, vel int32) spec {
		s := spec{}.zz(pos).zz(0).zz(0).u8(head).zz(k[0]).zz(k[1]).zz(k[2]).zz(vel).zz(0).zz(0).zz(0).zz(0).zz(0)
		return s.xorWords(&zeros, &zeros, 13)
	}
	rb, _ := game.EncodeRot(base[0].Rot)
	contact := spec{}.uv(0).uv(0).uv(0).f64(1).f64(0).f64(0)
	// grp returns a body's group mask and nibble bytes.
	grp := func(mask byte, nibs ...byte) []byte { return append([]byte{mask}, nibs...) }
	for _, c := range []struct {
		name string
		b    []byte
		err  error
	}{
		{"valid", head(HasContacts|ContactsComplete|Complete, 2).uv(0).u8(same...).uv(4).u8(same...).u16(1).u8(contact...), nil},
		{"valid quantized", head(Quantized, 1).uv(0).u8(qbody(rb.Largest|4, [3]int32{}, 1, -1)...), nil},
		{"one chain for all", msg(KindSnapshot).u32(10).uv(1).u8(SameChains).u64(1).u64(2).uv(3).uv(4).zz(-5).zz(-7).u16(0), nil},
		{"the all-players chain sent, equal to the client's", msg(KindSnapshot).u32(10).uv(1).u8(0).u64(1).u64(2).u64(2).uv(3).uv(4).zz(5).zz(0).u16(0), ErrInvalid},
		{"a baseline of 2³² ticks ago", msg(KindSnapshot).u32(10).uv(1 << 32).u8(0).u64(1).u64(2).u64(6).uv(3).uv(4).zz(5).zz(0).u16(0), ErrInvalid},
		{"an ack mask naming the view 64 ticks before the baseline", head(HasAcks, 0)[:7].u8(HasAcks, 8).u64(1 << 63).u8(head(0, 0)[8:]...), nil},
		{"an ack mask of 9 bytes", head(HasAcks, 0)[:7].u8(HasAcks, 9).u64(1).u8(1).u8(head(0, 0)[8:]...), ErrInvalid},
		{"an ack mask with a zero top byte", head(HasAcks, 0)[:7].u8(HasAcks, 2, 1, 0).u8(head(0, 0)[8:]...), ErrInvalid},
		{"an ack mask of no bytes", head(HasAcks, 0)[:7].u8(HasAcks, 0).u8(head(0, 0)[8:]...), ErrInvalid},
		{"an ack mask cut", head(HasAcks, 0)[:7].u8(HasAcks, 3, 1), ErrShort},
		{"unknown flag 0x40", head(0x40, 0), ErrInvalid},
		{"unknown flag 0x80", head(0x80, 0), ErrInvalid},
		{"contacts complete without contacts", head(ContactsComplete, 0), ErrInvalid},
		{"more bodies than the world's", head(0, 7), ErrInvalid},
		{"body index 6 of 6", head(0, 1).uv(6).u8(same...), ErrInvalid},
		{"second body index 6 of 6", head(0, 2).uv(3).u8(same...).uv(2).u8(same...), ErrInvalid},
		{"body gap 2³²-1", head(0, 1).uv(math.MaxUint32).u8(same...), ErrInvalid},
		{"a word of 1 byte", head(0, 1).uv(0).u8(grp(1, 0x01, 0)...).u8(1), nil},
		{"a word with a zero top byte", head(0, 1).uv(0).u8(grp(1, 0x01, 0)...).u8(0), ErrInvalid},
		{"a word of 2 bytes with a zero top byte", head(0, 1).uv(0).u8(grp(1, 0x20, 0)...).u8(7, 0), ErrInvalid},
		{"a word of 9 bytes", head(0, 1).uv(0).u8(grp(1, 0x09, 0)...).u8(1, 1, 1, 1, 1, 1, 1, 1, 1), ErrInvalid},
		{"a nibble past the last word", head(0, 1).uv(0).u8(grp(1, 0x01, 0x10)...).u8(1), ErrInvalid},
		{"a group flagged with no word changed", head(0, 1).uv(0).u8(grp(1, 0, 0)...), ErrInvalid},
		{"group bit 7", head(0, 1).uv(0).u8(grp(0x80)...), ErrInvalid},
		{"a quantised body flagging its position group", head(Quantized, 1).uv(0).u8(qbody(rb.Largest|4, [3]int32{}, 1, -1)[:13]...).u8(grp(1, 0x01, 0)...).u8(1), ErrInvalid},
		{"a body cut", head(0, 1).uv(0).u8(grp(1, 0x08, 0)...).u8(1, 1, 1), ErrShort},
		{"rotation head 8", head(Quantized, 1).uv(0).u8(qbody(8, [3]int32{}, 0, 0)...), ErrInvalid},
		{"rotation head 0x80", head(Quantized, 1).uv(0).u8(qbody(0x80, [3]int32{}, 0, 0)...), ErrInvalid},
		{"rotation code 2¹⁴", head(Quantized, 1).uv(0).u8(qbody(0, [3]int32{0, game.RotLimit + 1, 0}, 0, 0)...), ErrInvalid},
		{"rotation code -2¹⁴", head(Quantized, 1).uv(0).u8(qbody(0, [3]int32{0, 0, -game.RotLimit - 1}, 0, 0)...), ErrInvalid},
		{"rotation code 2³¹-1", head(Quantized, 1).uv(0).u8(qbody(0, [3]int32{math.MaxInt32, 0, 0}, 0, 0)...), ErrInvalid},
		{"rotation delta out of range", head(Quantized, 1).uv(0).u8(qbody(rb.Largest|4, [3]int32{2 * game.RotLimit, 0, 0}, 0, 0)...), ErrInvalid},
		{"rotation delta against another largest", head(Quantized, 1).uv(0).u8(qbody((rb.Largest+1)%4|4, [3]int32{}, 0, 0)...), ErrInvalid},
		{"position out of range", head(Quantized, 1).uv(0).u8(qbody(0, [3]int32{}, 2*game.PosLimit+1, 0)...), ErrInvalid},
		{"position -2³¹", head(Quantized, 1).uv(0).u8(qbody(0, [3]int32{}, math.MinInt32, 0)...), ErrInvalid},
		{"velocity out of range", head(Quantized, 1).uv(0).u8(qbody(0, [3]int32{}, 0, 2*game.VelLimit+1)...), ErrInvalid},
		{"more contacts than bytes", head(HasContacts, 0).u16(2).u8(contact...), ErrShort},
		{"a contact's body 2³²", head(HasContacts, 0).u16(1).uv(1 << 32).u8(contact[1:]...), ErrInvalid},
		{"a contact cut", head(HasContacts, 0).u16(1).u8(contact[:20]...), ErrShort},
	} {
		m := Snapshot{Tick: 99}
		err := DecodeSnapshot(c.b, &m, base)
		switch {
		case c.err == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		case c.err != nil && m.Tick != 99:
			t.Errorf("%s: the destination was changed", c.name)
		}
	}
}
