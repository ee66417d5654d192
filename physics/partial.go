package physics

import "fmt"

// Partial re-simulation.
//
// A rewind re-simulates ticks the world has simulated before, from a state
// that differs from the one it had then in a few bodies. Follow makes a
// step simulate only the bodies that difference can reach, and give every
// other body the state the recorded step (its Trace) gave it.
//
// The invariant that makes this exact: nothing a step computes for a body
// depends on a body it is not linked to in that step, where two bodies are
// linked when the broad phase pairs them (their bounds, grown by the
// margin and by how far each may move in the step, overlap) or the contact
// cache holds a contact between them, before or after the step, and static
// bodies and the ground link nothing. The step's stages are each a loop of
// per-body or per-pair work in index or key order with no quantity summed
// over the world: the broad phase and the narrow phase work per pair, the
// solver per contact, islands and sleep per island, and waking per island
// of the cache. The solver's passes run the overflow, then colour by
// colour (graph.go), and a contact's colour depends only on the contacts
// of the bodies it is linked to, never on the rest of the world: it is
// taken greedily in key order from the colours its own moving bodies
// already hold, and a side that does not move holds none. So the order in
// which the contacts of a group of linked bodies are solved, relative to
// each other, is the same whoever else is in the world; the serial passes
// (redo, heavy-load, shock) go in key order. A colouring from anything
// global (a count of the world's contacts, a colour limit from the worker
// count, a balance of the colours' sizes) would break this. So if the followed set S is closed
// (no body outside S is linked to a body of S), the bodies of S evolve
// exactly as in a full step, and those outside S exactly as recorded,
// given that their states at the start are the recorded ones.
//
// A body outside S must also have been unlinked from S in the recorded
// step, or its recorded state took in a state of S that the replay
// changes. Follow keeps S closed step by step, over the links of both
// runs: before each step it adds the bodies linked to S by the cache now,
// by the recorded step's contacts (Trace.Contacts) and by its pairs that
// may leave none (Trace.Links); then, with every awake body's bounds
// computed as the full step computes them, the bodies the broad phase
// pairs with S, until nothing is added. The recorded cache at the rewind
// tick is the caller's (Spread). The set only grows during a replay. The
// partial-against-full tests (partial_test.go) check the result bit for
// bit, and show that a quantity summed over the world (a test hook,
// testBreach in hooks.go) breaks it.

// Follow makes the next Step re-simulate only the bodies of s and those
// they reach, and give every other body the state that the step recorded in
// old gave it. The world's state must be the recorded run's state at
// old.Tick for every body outside s (and every contact between them);
// bodies changed since the last step (forces, SetBody, ...) join s, as do
// old.Touched, unless both runs changed them to the same state. Step adds
// to s the bodies it had to simulate too. The result is bit for bit that of
// a full step, and the next Record'ed trace is the one a full step would
// have written. Follow returns an error, and
// the next step is a full one, if old is not a trace of the world's tick.
func (w *World) Follow(s *Set, old *Trace) error {
	if old.Tick != w.st.Tick {
		return fmt.Errorf("physics: follow: trace of tick %d for the state of tick %d", old.Tick, w.st.Tick)
	}
	if len(s.in) != len(w.shapes) || len(old.States) != len(old.Bodies) {
		return fmt.Errorf("physics: follow: a set of %d bodies and a trace of %d bodies and %d states for a world of %d",
			len(s.in), len(old.Bodies), len(old.States), len(w.shapes))
	}
	w.follow, w.followSet = old, s
	return nil
}

// beginFollow builds the followed set for this step: the caller's set, the
// bodies touched since the last step in this run and in the recorded one,
// closed over the contact cache. Static bodies are left out: they link
// nothing.
func (w *World) beginFollow() {
	p := &w.ctx.part
	p.Reset(len(w.shapes))
	w.ctx.mask, w.ctx.lite = p.in, true
	add := func(i int32) {
		if i >= 0 && int(i) < len(w.shapes) && !w.shapes[i].static {
			p.Add(i)
		}
	}
	for _, i := range w.followSet.list {
		add(i)
	}
	// A body touched before the step, in this run or the recorded one,
	// starts the step as recorded only if the recorded run touched it too
	// and it is now as the recorded step found it: the same forces on the
	// same state (an input that did not change, a scene's force that does
	// not depend on what changed). Any other is followed.
	old := w.follow
	asRecorded := func(o int) bool { // old.Touched[o] is now as the recorded step found it
		i := old.Touched[o]
		return o < len(old.Before) && int(i) < len(w.st.Bodies) && bodyWords(&w.st.Bodies[i]) == bodyWords(&old.Before[o])
	}
	o := 0
	for _, i := range w.touched {
		for ; o < len(old.Touched) && old.Touched[o] < i; o++ {
			if !asRecorded(o) {
				add(old.Touched[o])
			}
		}
		if o < len(old.Touched) && old.Touched[o] == i {
			if !asRecorded(o) {
				add(i)
			}
			o++
			continue
		}
		add(i)
	}
	for ; o < len(old.Touched); o++ {
		if !asRecorded(o) {
			add(old.Touched[o])
		}
	}
	for grown := true; grown; {
		grown = w.spreadOver(p, w.st.Contacts)
		grown = w.spreadOver(p, w.follow.Contacts) || grown
		for _, l := range w.follow.Links {
			grown = w.link(p, int32(l>>32), int32(uint32(l))) || grown
		}
	}
}

// spreadOver adds to p the dynamic bodies that a contact of cs links to a
// body of p, and reports whether it added any.
func (w *World) spreadOver(p *Set, cs []ContactState) bool {
	grown := false
	for k := range cs {
		c := &cs[k]
		if c.B != Ground && w.link(p, c.A, c.B) {
			grown = true
		}
	}
	return grown
}

// link adds a or b to p when the other is in p and both are dynamic, and
// reports whether it did.
func (w *World) link(p *Set, a, b int32) bool {
	if p.in[a] == p.in[b] || w.shapes[a].static || w.shapes[b].static {
		return false
	}
	p.Add(a)
	p.Add(b)
	return true
}

// Spread adds to s the dynamic bodies that the contact cache of st links,
// directly or through others, to a body of s: before a partial replay,
// those of the state the recorded run started from, whose steps the
// bodies of s may have changed. st must be a state of this world.
func (w *World) Spread(s *Set, st *State) {
	for w.spreadOver(s, st.Contacts) {
	}
}

// smallFollow is the most followed bodies for which followPairs looks for
// their pairs body by body (each against every body of the world) rather
// than by the broad phase's sweep over every awake body. The tests move it
// (testSmallFollow) to take every way through followPairs.
const smallFollow = 24

// Ways through followPairs, which the tests count (testFollowWays).
const (
	wayEach  = iota // body by body to the end
	wayGrown        // body by body, then swept when the set grew past smallFollow
	waySweep        // swept from the start
	followWays
)

// followPairs closes the followed set over the broad phase's pairs and
// leaves the pairs that hold one of its bodies (see closeOverPairs). While
// the set is small it tests each of its bodies against every body instead
// of sweeping: the same test on the same bounds, so the same pairs.
func (w *World) followPairs() {
	p := &w.ctx.part
	small := smallFollow
	if testSmallFollow != nil {
		small = *testSmallFollow
	}
	if len(p.list) > small {
		followWay(waySweep)
		w.findPairs()
		w.closeOverPairs()
		return
	}
	pb := &w.ctx.pairs
	pb.list = pb.list[:0]
	bodies := w.st.Bodies
	for k := 0; k < len(p.list); k++ {
		if len(p.list) > small { // grown too large: sweep after all
			followWay(wayGrown)
			w.findPairs()
			w.closeOverPairs()
			return
		}
		i := p.list[k]
		if bodies[i].Disabled {
			continue
		}
		bi, ai := &w.bounds[i], w.ctx.sidx[i] != -1
		for j := range w.shapes {
			bj := &w.bounds[j]
			if int32(j) == i || bodies[j].Disabled || (!ai && w.ctx.sidx[j] == -1) ||
				bj.lo.X > bi.hi.X || bi.lo.X > bj.hi.X ||
				bj.lo.Y > bi.hi.Y || bi.lo.Y > bj.hi.Y || bj.lo.Z > bi.hi.Z || bi.lo.Z > bj.hi.Z {
				continue
			}
			if w.shapes[j].static {
				pb.add(i, int32(j))
				continue
			}
			// j follows too (if it did not): the pair is met from both
			// sides, and kept from the side of the lower index.
			w.link(p, i, int32(j))
			if i < int32(j) {
				pb.add(i, int32(j))
			}
		}
	}
	followWay(wayEach)
	pb.sort(len(w.shapes))
	w.ctx.lite = false
	w.activate()
}

// closeOverPairs adds to the followed set every dynamic body the broad
// phase pairs with one of its bodies, until none is added, with every awake
// body active (the pairs of the full step); then it makes the followed
// bodies alone active and keeps the pairs that hold one of them.
func (w *World) closeOverPairs() {
	p := &w.ctx.part
	for grown := true; grown; {
		grown = false
		for _, pr := range w.ctx.pairs.list {
			grown = w.link(p, int32(pr>>32), int32(uint32(pr))) || grown
		}
	}
	w.ctx.lite = false
	w.activate()
	pairs := w.ctx.pairs.list[:0]
	for _, pr := range w.ctx.pairs.list {
		if p.in[pr>>32] || p.in[uint32(pr)] {
			pairs = append(pairs, pr)
		}
	}
	w.ctx.pairs.list = pairs
}

// endFollow gives the bodies outside the followed set the states of the
// recorded step, and the cache the recorded entries between them; then it
// records the trace of this step, if asked, and grows the caller's set.
func (w *World) endFollow(tick uint32) {
	old, p := w.follow, &w.ctx.part
	for k, i := range old.Bodies {
		if !p.in[i] {
			w.setState(int(i), &old.States[k])
		}
	}
	w.followCache(old) // cache.go, beside storeCache, whose rule it follows
	if w.rec != nil {
		act := w.ctx.actBuf[:0]
		for _, i := range old.Active {
			if !p.in[i] {
				act = append(act, i)
			}
		}
		act = sortedUnique(append(act, w.ctx.active...))
		w.ctx.actBuf = act
		extra := w.ctx.extraBuf[:0]
		for _, i := range old.Bodies {
			if !p.in[i] {
				extra = append(extra, i)
			}
		}
		w.ctx.extraBuf = extra
		links := w.ctx.linkBuf[:0]
		for _, l := range old.Links {
			if !p.in[l>>32] && !p.in[uint32(l)] {
				links = append(links, l)
			}
		}
		w.ctx.linkBuf = links
		w.capture(w.rec, tick, act, extra, links, false)
	}
	for _, i := range p.list {
		w.followSet.Add(i)
	}
	w.follow, w.followSet, w.ctx.mask = nil, nil, nil
}

// pairOnly is the solver index the first pass of a followed step gives an
// awake body it does not follow: the broad phase pairs it as an active
// body, and nothing else of the step sees it (the second pass makes it -1).
const pairOnly = -2

// liteBounds derives what the broad phase needs of awake body i, as
// activate does (the same operations, so the same bits) but without its
// solver data: rotation, sweep and bounds. A body with no torque skips the
// inverse inertia: the angular acceleration would be zeros (of either
// sign), which leave the spin's length as it is.
func (w *World) liteBounds(i int) {
	s, b := &w.shapes[i], &w.st.Bodies[i]
	dt := w.cfg.Dt
	w.fresh[i] = false
	w.rot[i] = rotationMat(b.Rot)
	acc := w.cfg.Gravity.AddScaled(b.Force, s.invMass)
	v := b.Vel.AddScaled(acc, dt)
	av := b.AngVel
	if b.Torque != (Vec3{}) {
		invI := sandwich(&w.rot[i], s.invInertia)
		av = av.AddScaled(invI.MulVec(b.Torque), dt)
	}
	rs := mul(dt, mul(av.Len(), s.radius))
	sw := mul(dt, v.Len()) + rs
	w.sweep[i] = sw
	w.bounds[i] = boundsOf(s.half, &w.rot[i], b.Pos, mul(0.5, w.cfg.Margin)+sw)
}
