package physics

import (
	"fmt"
	"slices"
)

// Trace is what one step changed, recorded by the step itself (see
// World.Record): enough to redo the step without simulating it
// (World.ApplyTrace), and to let a partial re-simulation take the bodies it
// leaves alone from the recorded run (World.Follow).
//
// From the state labelled Tick, the step's result is: every body of Bodies
// takes its state in States; the contact cache keeps its entries that touch
// neither a body of Active nor a disabled body, merged in key order with
// Contacts. That is how the step writes its cache (storeCache): the
// contacts of its constraints, each with an active body, plus the cached
// contacts of pairs it did not touch.
type Trace struct {
	Tick     uint32         // the label of the state the step started from
	Active   []int32        // the bodies the step moved (dynamic, enabled, awake), in index order
	Bodies   []int32        // every body whose state the step changed: the active ones, those it woke and those changed before it (Touched), in index order
	States   []BodyState    // the states of Bodies after the step
	Touched  []int32        // the bodies changed between the previous step and this one (forces, impulses, SetBody, SetEnabled and the bodies it woke), in index order
	Before   []BodyState    // the states of Touched as the step found them
	Contacts []ContactState // the cache entries with a body of Active after the step, in key order
	Links    []uint64       // a<<32 | b: the pairs made again in every substep (redo), which may wake a body and leave no contact
}

// Record makes the next Step write what it changed into tr, reusing tr's
// buffers. tr must not be the trace a Follow of the same step reads.
func (w *World) Record(tr *Trace) { w.rec = tr }

// Cancel drops what Record and Follow asked of the next step: for a caller
// that will not step after all.
func (w *World) Cancel() { w.rec, w.follow, w.followSet, w.ctx.mask = nil, nil, nil, nil }

// Amend reads again the states of tr.Bodies from the world: for a rule
// that changes, after the step, only bodies the step changed (the lab's
// quantiser, which puts the bodies that moved back on its grid), so that
// tr holds the states after it.
func (w *World) Amend(tr *Trace) {
	for k, i := range tr.Bodies {
		tr.States[k] = w.st.Bodies[i]
	}
}

// noteTouched sorts the bodies touched since the last step and keeps their
// states as the step finds them (Trace.Before).
func (w *World) noteTouched() {
	w.touched = sortedUnique(w.touched)
	w.before = w.before[:0]
	for _, i := range w.touched {
		w.before = append(w.before, w.st.Bodies[i])
	}
}

// touch notes that body i is changed outside a step (see Trace.Touched).
func (w *World) touch(i int) { w.touched = append(w.touched, int32(i)) }

// ApplyTrace puts the world in the state the step tr recorded gave, without
// simulating: tr must have been recorded from the world's current state
// (the same bits), as a rewind's history is. It refuses a trace for
// another tick or one that names bodies outside the world.
func (w *World) ApplyTrace(tr *Trace) error {
	if tr.Tick != w.st.Tick {
		return fmt.Errorf("physics: trace of tick %d applied to the state of tick %d", tr.Tick, w.st.Tick)
	}
	n := int32(len(w.shapes))
	if len(tr.States) != len(tr.Bodies) {
		return fmt.Errorf("physics: trace of tick %d has %d bodies and %d states", tr.Tick, len(tr.Bodies), len(tr.States))
	}
	for _, list := range [2][]int32{tr.Active, tr.Bodies} {
		for _, i := range list {
			if i < 0 || i >= n {
				return fmt.Errorf("physics: trace of tick %d names body %d, outside the world", tr.Tick, i)
			}
		}
	}
	w.touched = w.touched[:0]
	for k, i := range tr.Bodies {
		w.setState(int(i), &tr.States[k])
	}
	w.markList(tr.Active)
	w.mergeCache(tr.Contacts, w.keepCarried, nil)
	w.st.Tick++
	return nil
}

// mergeCache makes the contact cache the merge, in key order, of its
// entries that keep accepts and the entries of add that take accepts (all
// of them when take is nil): how a recorded step's contacts replace the
// ones it changed (ApplyTrace, endFollow).
func (w *World) mergeCache(add []ContactState, keep, take func(*ContactState) bool) {
	cur, next, o := w.st.Contacts, w.ctx.cache[:0], 0
	for k := range add {
		c := &add[k]
		if take != nil && !take(c) {
			continue
		}
		key := c.key()
		for ; o < len(cur) && cur[o].key() < key; o++ {
			if keep(&cur[o]) {
				next = append(next, cur[o])
			}
		}
		next = append(next, *c)
	}
	for ; o < len(cur); o++ {
		if keep(&cur[o]) {
			next = append(next, cur[o])
		}
	}
	w.ctx.cache, w.st.Contacts = cur, next
}

// keepCarried reports whether cached contact c outlives a step whose active
// bodies are marked (markList): neither body active nor disabled.
func (w *World) keepCarried(c *ContactState) bool {
	if w.marked(c.A) || w.st.Bodies[c.A].Disabled {
		return false
	}
	return c.B == Ground || !(w.marked(c.B) || w.st.Bodies[c.B].Disabled)
}

// markList marks the bodies of list, unmarking every other (see marked).
func (w *World) markList(list []int32) {
	w.ctx.epoch++
	if w.ctx.epoch == 0 { // wrapped: clear the old marks
		clear(w.ctx.mark)
		w.ctx.epoch = 1
	}
	if len(w.ctx.mark) < len(w.shapes) {
		w.ctx.mark = slices.Grow(w.ctx.mark[:0], len(w.shapes))[:len(w.shapes)]
		clear(w.ctx.mark)
	}
	for _, i := range list {
		w.ctx.mark[i] = w.ctx.epoch
	}
}

// marked reports whether body i (never Ground) is in the list markList
// marked last.
func (w *World) marked(i int32) bool { return w.ctx.mark[i] == w.ctx.epoch }

// setState replaces body i's state with s, keeping its derived data when
// the pose is the same bits, and deriving it now for a body the next step
// will not move (as Load does).
func (w *World) setState(i int, s *BodyState) {
	if w.fresh[i] && !samePose(&w.st.Bodies[i], s) {
		w.fresh[i] = false
	}
	w.st.Bodies[i] = *s
	if !w.fresh[i] && !w.Awake(i) {
		w.derive(i)
	}
}

// capture writes what the step just taken from tick changed into tr.
// active lists the step's active bodies in index order; the bodies it woke
// and those touched before it are in w.woken and w.touched; extra lists
// more bodies it changed (a followed step's bodies taken from the record).
// With contacts false, tr.Contacts is left as it is (a followed step
// writes it while it merges its cache).
func (w *World) capture(tr *Trace, tick uint32, active, extra []int32, links []uint64, contacts bool) {
	tr.Tick = tick
	tr.Active = append(tr.Active[:0], active...)
	tr.Touched = append(tr.Touched[:0], w.touched...) // sorted by Step
	tr.Before = append(tr.Before[:0], w.before...)
	b := append(tr.Bodies[:0], active...)
	b = append(b, w.woken...)
	b = append(b, tr.Touched...)
	b = append(b, extra...)
	tr.Bodies = sortedUnique(b)
	tr.States = tr.States[:0]
	for _, i := range tr.Bodies {
		tr.States = append(tr.States, w.st.Bodies[i])
	}
	tr.Links = append(tr.Links[:0], links...)
	for k := range w.ctx.redo {
		if r := &w.ctx.redo[k]; w.ctx.mask == nil || w.ctx.mask[r.a] || w.ctx.mask[r.b] {
			tr.Links = append(tr.Links, uint64(uint32(r.a))<<32|uint64(uint32(r.b)))
		}
	}
	if len(links) > 0 {
		slices.Sort(tr.Links)
	}
	if !contacts {
		return
	}
	w.markList(tr.Active)
	tr.Contacts = tr.Contacts[:0]
	for k := range w.st.Contacts {
		c := &w.st.Contacts[k]
		if w.marked(c.A) || (c.B != Ground && w.marked(c.B)) {
			tr.Contacts = append(tr.Contacts, *c)
		}
	}
}

// sortedUnique sorts s and drops repeated entries, in place.
func sortedUnique(s []int32) []int32 {
	slices.Sort(s)
	return slices.Compact(s)
}

// CopyFrom makes tr an exact copy of src, reusing tr's buffers.
func (tr *Trace) CopyFrom(src *Trace) {
	tr.Tick = src.Tick
	tr.Active = append(tr.Active[:0], src.Active...)
	tr.Bodies = append(tr.Bodies[:0], src.Bodies...)
	tr.States = append(tr.States[:0], src.States...)
	tr.Touched = append(tr.Touched[:0], src.Touched...)
	tr.Before = append(tr.Before[:0], src.Before...)
	tr.Contacts = append(tr.Contacts[:0], src.Contacts...)
	tr.Links = append(tr.Links[:0], src.Links...)
}
