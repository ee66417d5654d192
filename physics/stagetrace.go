package physics

import (
	"fmt"
	"math"
	"slices"
)

// StageTrace is one step recorded stage by stage, for finding which part
// of the step made two machines disagree: after each stage, a hash of
// every value the step tracks, and the values the stage changed, with
// their bits. The tracked values are the active bodies' poses and
// velocities, the broad phase's pairs, and each contact's points (feature,
// separation, normal impulse), friction and twist impulses.
type StageTrace struct {
	Tick   uint32 // the world's tick before the step
	Engine uint64 // EngineRevision of the engine that stepped
	// Path hashes the shape of the stage list (each solver stage's kind,
	// substep and range of contacts): two steps with one Path list the
	// same stages. A trace file does not store it (0 when read).
	Path   uint64
	Stages []TracedStage
}

// TracedStage is one stage of a traced step.
type TracedStage struct {
	Name  string      // "activate", "pairs", "contacts", "colours", "substep 1: solve, colour 3", ..., "store", "sleep"
	Hash  uint64      // of every tracked value after the stage
	Items []TraceItem // the tracked values the stage changed, in the step's order
}

// TraceItem is one value a stage changed.
type TraceItem struct {
	What  string // "body 17", "pair (17,42)", "contact (17,42)", "contact (17,42) point 1"
	Field string // "pos.x", "vel.y", "pn", "sep", "feature", "pt1", ...
	Bits  uint64 // its bits: a float64's pattern, or an integer
}

// String formats the item with its value as a decimal and as bits.
func (it TraceItem) String() string {
	return fmt.Sprintf("%s %s: %s", it.What, it.Field, traceValue(it.Field, it.Bits))
}

// traceValue formats the bits of a value of field: an integer, or a
// float64 as a decimal and as bits.
func traceValue(field string, bits uint64) string {
	switch field {
	case "feature", "found", "colour", "rest", "flags":
		return fmt.Sprint(bits)
	}
	return fmt.Sprintf("%.17g (%#016x)", math.Float64frombits(bits), bits)
}

// TraceNext makes the world's next Step record itself into t, stage by
// stage, on one worker (the stage list gives the same bits on any). The
// trace costs the step about as much again as the step.
func (w *World) TraceNext(t *StageTrace) {
	*t = StageTrace{Tick: w.st.Tick, Engine: EngineRevision}
	w.strace = &stageTracer{out: t, sums: w.shash.sumsOf()}
}

// StageHashes are the stage hashes of one step, without the values: what
// a record stores with each tick (World.HashStages). Hashes[k] is the
// hash of what stage k of the step may write (stagehash.go), stage k of a
// StageTrace of the same step.
type StageHashes struct {
	Tick   uint32 // the world's tick before the step
	Path   uint64 // StageTrace.Path
	Hashes []uint64
}

// HashStages makes every later step, while on, hash after each of its
// stages the tracked values the stage may write; StageHashes returns the
// last step's. The hashed steps give the same bits, on one worker (see
// BenchmarkStageHashesCubes for the cost); off, the step pays nothing.
func (w *World) HashStages(on bool) {
	switch {
	case on && w.shash == nil:
		w.shash = &stageTracer{sums: &StageHashes{}, fresh: true}
		if w.strace == nil {
			w.strace = w.shash
		}
	case !on && w.shash != nil:
		if w.strace == w.shash {
			w.strace = nil
		}
		w.shash = nil
	}
}

// StageHashes returns the stage hashes of the world's last step, or nil
// when HashStages is off or no step was hashed since it was turned on.
// They are the world's: the next step overwrites them.
func (w *World) StageHashes() *StageHashes {
	if w.shash == nil || w.shash.fresh {
		return nil
	}
	return w.shash.sums
}

// sumsOf is where a tracer that replaces t for one step puts its hashes:
// t's, or nil without t.
func (t *stageTracer) sumsOf() *StageHashes {
	if t == nil {
		return nil
	}
	t.fresh = false
	t.sums.Hashes = t.sums.Hashes[:0]
	return t.sums
}

// stageTracer keeps the values the traced step tracked after the last
// stage, to tell which ones a stage changed.
type stageTracer struct {
	out  *StageTrace  // the trace, or nil when the tracer only hashes
	sums *StageHashes // the hashes, or nil
	// fresh: no step has filled sums yet.
	fresh bool
	keys  []traceKey // the tracked values after the last stage, in order
	bits  []uint64
	// The next stage's lists, swapped with keys and bits after it.
	nkeys []traceKey
	nbits []uint64
	sub   int // the substep under way, from 1
	// phase is how far the step has come: 0 bodies active, 1 pairs found,
	// 2 contacts made, 3 contacts coloured. The scratch of a later phase
	// still holds the last step's until this step fills it.
	phase    int
	colourOf []int // traceColours' list
	tamper   func(stage string, w *World)
	written  func([]traceKey) // tests: the keys each stage's hash took
}

// traceKey names one tracked value.
type traceKey struct {
	kind  uint8 // 0 body, 1 pair, 2 contact, 3 contact point, 4 cache entry
	field uint8 // in traceFields
	a, b  int32
	point uint32
}

// traceFields are the names of the tracked fields.
var traceFields = [...]string{
	"pos.x", "pos.y", "pos.z", "rot.w", "rot.x", "rot.y", "rot.z",
	"vel.x", "vel.y", "vel.z", "angvel.x", "angvel.y", "angvel.z",
	"found", "normal.x", "normal.y", "normal.z", "pt1", "pt2", "twist", "colour",
	"feature", "sep", "pn", "rest", "flags",
}

// Indices of traceFields beyond a body's first 13.
const (
	tfFound = 13 + iota
	tfNormal
	_
	_
	tfPt1
	tfPt2
	tfTwist
	tfColour
	tfFeature
	tfSep
	tfPn
	tfRest
	tfFlags
)

// what names k's item as a trace shows it.
func (k traceKey) what() string {
	switch k.kind {
	case 0:
		return fmt.Sprintf("body %d", k.a)
	case 1:
		return fmt.Sprintf("pair (%d,%d)", k.a, k.b)
	case 2:
		return fmt.Sprintf("contact (%d,%d)", k.a, k.b)
	case 4:
		return fmt.Sprintf("cache (%d,%d) feature %d", k.a, k.b, k.point)
	}
	return fmt.Sprintf("contact (%d,%d) point %d", k.a, k.b, k.point)
}

// traceSink hashes the tracked values of one stage in order and, for a
// trace, keeps them.
type traceSink struct {
	h, n uint64
	keep bool
	keys []traceKey
	bits []uint64
}

func (s *traceSink) put(k traceKey, bits uint64) {
	if s.keep {
		s.keys, s.bits = append(s.keys, k), append(s.bits, bits)
	}
	s.n++
	s.h = (s.h ^ bits) * 0x100000001b3
	s.h = (s.h ^ s.n) * 0x100000001b3
}

// traceStage records solver stage s.
func (w *World) traceStage(s *stage) {
	t := w.strace
	if t.out != nil {
		w.traceAt(w.stageName(s), s)
		return
	}
	if s.kind == stageIntVel {
		t.sub++
	}
	w.traceAt("", s)
}

// traceAt records stage name (s for the solver's stages, which have no
// name when the tracer only hashes): the hash of what the stage may write
// (stagehash.go) for the stage hashes and, for a trace, the hash of the
// tracked values now and those that differ from the last stage's.
func (w *World) traceAt(name string, s *stage) {
	t := w.strace
	if t.tamper != nil {
		t.tamper(name, w)
	}
	sk := traceSink{h: 0xcbf29ce484222325, keep: t.out != nil, keys: t.nkeys[:0], bits: t.nbits[:0]}
	f := math.Float64bits
	switch name {
	case "activate":
		t.phase, t.sub = 0, 0
		if t.sums != nil {
			t.sums.Tick, t.sums.Hashes = w.st.Tick, t.sums.Hashes[:0]
			t.fresh = false
		}
	case "pairs":
		t.phase = 1
	case "contacts":
		t.phase = 2
	case "colours":
		t.phase = 3
		t.colourOf = w.traceColours(t.colourOf)
		path := stagePath(w.ctx.stages)
		if t.out != nil {
			t.out.Path = path
		}
		if t.sums != nil {
			t.sums.Path = path
		}
	}
	if t.sums != nil {
		ws := traceSink{h: 0xcbf29ce484222325, keep: t.written != nil}
		w.stageWrites(&ws, t, name, s)
		t.sums.Hashes = append(t.sums.Hashes, ws.h)
		if t.written != nil {
			t.written(ws.keys)
		}
	}
	if t.out == nil {
		return
	}
	for _, p := range w.ctx.pairs.list {
		if t.phase < 1 {
			break
		}
		sk.put(traceKey{kind: 1, a: int32(p >> 32), b: int32(uint32(p)), field: tfFound}, 1)
	}
	colourOf := t.colourOf
	if t.phase < 3 {
		colourOf = nil
	}
	for ci := range w.ctx.cons {
		if t.phase < 2 {
			break
		}
		c := &w.ctx.cons[ci]
		ck := traceKey{kind: 2, a: c.a, b: c.b}
		for n, v := range [...]float64{c.d.X, c.d.Y, c.d.Z, c.f1.p, c.f2.p, c.ptw} {
			ck.field = uint8(tfNormal + n)
			sk.put(ck, f(v))
		}
		if colourOf != nil {
			ck.field = tfColour
			sk.put(ck, uint64(colourOf[ci]))
		}
		for j := range c.count {
			p := &w.ctx.pts[c.first+j]
			pk := traceKey{kind: 3, a: c.a, b: c.b, point: uint32(j)}
			pk.field = tfFeature
			sk.put(pk, uint64(w.ctx.info[c.first+j].feature))
			pk.field = tfSep
			sk.put(pk, f(p.s))
			pk.field = tfPn
			sk.put(pk, f(p.pn))
		}
	}
	// The bodies last: in a contact stage the impulses are the cause, the
	// velocities follow from them, and a diff names the first item.
	for k, i := range w.ctx.active {
		b := &w.st.Bodies[i]
		id := int32(i)
		for n, v := range [...]float64{b.Pos.X, b.Pos.Y, b.Pos.Z, b.Rot.W, b.Rot.X, b.Rot.Y, b.Rot.Z} {
			sk.put(traceKey{kind: 0, a: id, field: uint8(n)}, f(v))
		}
		if k < len(w.ctx.vel) {
			v := &w.ctx.vel[k]
			for n, x := range [...]float64{v.v.X, v.v.Y, v.v.Z, v.w.X, v.w.Y, v.w.Z} {
				sk.put(traceKey{kind: 0, a: id, field: uint8(7 + n)}, f(x))
			}
		}
	}
	if name == "store" || name == "sleep" {
		// What the step leaves in the state: each body's rest count and
		// flags, and the contact cache.
		w.traceRest(&sk)
		w.traceCache(&sk)
	}
	keys, now := sk.keys, sk.bits
	st := TracedStage{Name: name, Hash: sk.h}
	same := len(keys) == len(t.keys)
	for i := 0; same && i < len(keys); i++ {
		same = keys[i] == t.keys[i]
	}
	var prev map[traceKey]uint64 // only when the values tracked changed
	if !same {
		prev = make(map[traceKey]uint64, len(t.keys))
		for i, k := range t.keys {
			prev[k] = t.bits[i]
		}
	}
	for i, k := range keys {
		changed := same && now[i] != t.bits[i]
		if !same {
			old, ok := prev[k]
			changed = !ok || old != now[i]
		}
		if changed {
			st.Items = append(st.Items, TraceItem{What: k.what(), Field: traceFields[k.field], Bits: now[i]})
		}
	}
	t.out.Stages = append(t.out.Stages, st)
	t.keys, t.nkeys = keys, t.keys
	t.bits, t.nbits = now, t.bits
}

// stagePath hashes the shape of a stage list: each stage's kind, substep
// and range.
func stagePath(st []stage) uint64 {
	h := uint64(0xcbf29ce484222325)
	for k := range st {
		s := &st[k]
		for _, x := range [...]uint64{uint64(s.kind), uint64(uint32(s.sub)), uint64(uint32(s.lo)), uint64(uint32(s.hi))} {
			h = (h ^ x) * 0x100000001b3
		}
	}
	return h
}

// traceColours returns each constraint's colour (0: the overflow) in out,
// or nil when there is no contact.
func (w *World) traceColours(out []int) []int {
	g := &w.ctx.graph
	if len(g.list) != len(w.ctx.cons) || len(w.ctx.cons) == 0 {
		return nil
	}
	out = slices.Grow(out[:0], len(w.ctx.cons))[:len(w.ctx.cons)]
	for k := 0; k <= colourCount; k++ {
		for _, ci := range g.list[g.at[k]:g.at[k+1]] {
			out[ci] = k
		}
	}
	return out
}

// stageName names stage s of the list as a trace shows it, and counts the
// substeps.
func (w *World) stageName(s *stage) string {
	t := w.strace
	if s.kind == stageIntVel {
		t.sub++
	}
	if s.kind == stageRedo {
		return fmt.Sprintf("substep %d: redo fast pairs", s.sub+1)
	}
	name := [...]string{"redo fast pairs", "integrate velocities", "warm start", "solve", "integrate positions",
		"separations", "relax", "heavy-load passes", "shock pass", "restitution"}[s.kind]
	switch s.kind {
	case stageWarm, stageSolve, stageRelax, stageRestitute:
		g := &w.ctx.graph
		for k := 0; k <= colourCount; k++ {
			if g.at[k] == s.lo && g.at[k+1] == s.hi {
				if k == 0 {
					name += ", overflow"
				} else {
					name += fmt.Sprintf(", colour %d", k)
				}
				break
			}
		}
	}
	if s.kind == stageRestitute {
		return name
	}
	return fmt.Sprintf("substep %d: %s", t.sub, name)
}

// TraceDiff is where two traces of one step first differ.
type TraceDiff struct {
	Same  bool   // every stage hashes alike
	Stage int    // the first stage whose hash differs
	Name  string // its name
	// First is the first item of that stage that differs: in one trace
	// and not the other, or with other bits; A and B are its values in
	// each (OnlyA, OnlyB when the other lacks it).
	What, Field  string
	A, B         uint64
	OnlyA, OnlyB bool
	// Differ counts the items that differ in that stage, and Next in the
	// stage after it (-1 when there is none).
	Differ, Next int
	Why          string // when the traces cannot be compared stage by stage
}

// DiffTraces compares two traces of one step, a from one machine and b
// from another.
func DiffTraces(a, b *StageTrace) TraceDiff {
	switch {
	case a.Tick != b.Tick:
		return TraceDiff{Why: fmt.Sprintf("the traces are of ticks %d and %d", a.Tick, b.Tick)}
	case a.Engine != b.Engine:
		return TraceDiff{Why: fmt.Sprintf("the traces come from engine revisions %d and %d", a.Engine, b.Engine)}
	}
	n := min(len(a.Stages), len(b.Stages))
	for k := range n {
		sa, sb := &a.Stages[k], &b.Stages[k]
		if sa.Name != sb.Name {
			return TraceDiff{Stage: k, Name: sa.Name, Why: fmt.Sprintf("stage %d is %q in one and %q in the other: the steps took other paths before it", k, sa.Name, sb.Name)}
		}
		if sa.Hash == sb.Hash {
			continue
		}
		d := TraceDiff{Stage: k, Name: sa.Name, Next: -1}
		d.Differ = diffItems(sa.Items, sb.Items, &d)
		if k+1 < n {
			d.Next = diffItems(a.Stages[k+1].Items, b.Stages[k+1].Items, nil)
		}
		return d
	}
	if len(a.Stages) != len(b.Stages) {
		return TraceDiff{Stage: n, Why: fmt.Sprintf("one trace has %d stages, the other %d", len(a.Stages), len(b.Stages))}
	}
	return TraceDiff{Same: true}
}

// diffItems counts the items that differ between two stages' lists (both
// in the step's order), and puts the first in d when d is not nil.
func diffItems(a, b []TraceItem, d *TraceDiff) int {
	type key struct{ what, field string }
	inB := make(map[key]uint64, len(b))
	for _, it := range b {
		inB[key{it.What, it.Field}] = it.Bits
	}
	inA := make(map[key]bool, len(a))
	count := 0
	note := func(what, field string, va, vb uint64, onlyA, onlyB bool) {
		if count == 0 && d != nil {
			d.What, d.Field, d.A, d.B, d.OnlyA, d.OnlyB = what, field, va, vb, onlyA, onlyB
		}
		count++
	}
	for _, it := range a {
		k := key{it.What, it.Field}
		inA[k] = true
		vb, ok := inB[k]
		if !ok || vb != it.Bits {
			note(it.What, it.Field, it.Bits, vb, !ok, false)
		}
	}
	for _, it := range b {
		if !inA[key{it.What, it.Field}] {
			note(it.What, it.Field, 0, it.Bits, false, true)
		}
	}
	return count
}

// String says where the traces first differ, in a line or two.
func (d TraceDiff) String() string {
	switch {
	case d.Why != "":
		return "the traces cannot be compared: " + d.Why
	case d.Same:
		return "the traces agree at every stage"
	}
	s := fmt.Sprintf("first differing stage: %d, %s\n", d.Stage, d.Name)
	item := TraceItem{What: d.What, Field: d.Field}
	switch {
	case d.OnlyA:
		item.Bits = d.A
		s += fmt.Sprintf("  first item: %s, only in the first trace\n", item)
	case d.OnlyB:
		item.Bits = d.B
		s += fmt.Sprintf("  first item: %s, only in the second trace\n", item)
	case d.What != "":
		item.Bits = d.A
		s += fmt.Sprintf("  first item: %s against %s\n", item, traceValue(d.Field, d.B))
	default:
		s += "  the stage's hashes differ, but no item it changed does: an item changed in an earlier stage differs in value only now\n"
	}
	s += fmt.Sprintf("  %d items differ in this stage", d.Differ)
	if d.Next >= 0 {
		s += fmt.Sprintf(", %d in the next", d.Next)
	}
	return s
}

// traceRest puts each active body's rest count and flags.
func (w *World) traceRest(sk *traceSink) {
	for _, i := range w.ctx.active {
		b := &w.st.Bodies[i]
		sk.put(traceKey{kind: 0, a: i, field: tfRest}, uint64(b.Rest))
		sk.put(traceKey{kind: 0, a: i, field: tfFlags}, uint64(bodyFlags(b)))
	}
}

// traceCache puts the impulses of every entry of the contact cache.
func (w *World) traceCache(sk *traceSink) {
	for i := range w.st.Contacts {
		c := &w.st.Contacts[i]
		ck := traceKey{kind: 4, a: c.A, b: c.B, point: c.Feature}
		for n, v := range [...]float64{c.Pn, c.Pt1, c.Pt2} {
			ck.field = uint8([...]int{tfPn, tfPt1, tfPt2}[n])
			sk.put(ck, math.Float64bits(v))
		}
	}
}
