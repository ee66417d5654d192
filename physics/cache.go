package physics

// appendContacts appends c's points to cs as cache entries. Friction per
// point: the centre's impulse shared equally, plus the twist as tangent
// impulses about the centre (they sum to the centre's impulse and turn by
// the twist impulse).
func (w *World) appendContacts(cs []ContactState, c *constraint) []ContactState {
	pts := w.ctx.pts[c.first : c.first+c.count]
	info := w.ctx.info[c.first : c.first+c.count]
	share := 1 / float64(len(pts))
	spread := 0.0
	for k := range info {
		spread += info[k].off.Dot(info[k].off)
	}
	tw := 0.0
	if spread > 1e-12 {
		tw = c.ptw / spread
	}
	for k := range pts {
		t := c.d.Cross(info[k].off).Scale(tw)
		cs = append(cs, ContactState{A: c.a, B: c.b, Feature: info[k].feature, Pn: pts[k].pn,
			Pt1: mul(c.f1.p, share) + t.Dot(c.t1), Pt2: mul(c.f2.p, share) + t.Dot(c.t2)})
	}
	return cs
}

// storeCache writes the next contact cache: this step's contacts merged, in
// key order, with the cached contacts of pairs the step did not touch
// (neither body active: sleeping or static boxes, or the ground), which
// keep their impulses while they sleep. A followed step (partial.go)
// writes its cache with followCache, below, by the same rule: a change to
// one is a change to the other.
func (w *World) storeCache() {
	old := w.st.Contacts
	next := w.ctx.cache[:0]
	o := 0
	carry := func(limit uint64) {
		for ; o < len(old) && old[o].key() < limit; o++ {
			c := &old[o]
			if w.ctx.sidx[c.A] >= 0 || w.st.Bodies[c.A].Disabled {
				continue
			}
			if c.B != Ground && (w.ctx.sidx[c.B] >= 0 || w.st.Bodies[c.B].Disabled) {
				continue
			}
			next = append(next, *c)
		}
	}
	for ci := range w.ctx.cons {
		c := &w.ctx.cons[ci]
		if c.count == 0 {
			continue
		}
		carry(contactKey(c.a, c.b, w.ctx.info[c.first].feature))
		next = w.appendContacts(next, c)
	}
	carry(^uint64(0))
	w.ctx.cache = w.st.Contacts
	w.st.Contacts = next
}

// followCache writes the cache at the end of a followed step, in one merge
// in key order of three lists that share no entry:
//   - the contacts of this step's constraints (each with a followed active
//     body), as storeCache writes them;
//   - the entries of the recorded step's contacts (old.Contacts) between
//     bodies that are not followed: the recorded step's, where this step
//     made none;
//   - the entries of the cache before the step that storeCache would carry
//     (no active or disabled body) and that the recorded step carried too,
//     or that hold a followed body.
//
// When the step is recorded, the trace's contacts are the first two lists:
// the entries with a body active in the step (a followed active body, or
// one the recorded step moved and this one took from it). An entry of the
// third list never has one: a body linked by the cache to a followed body
// is followed (beginFollow), and so active only if this step moved it.
func (w *World) followCache(old *Trace) {
	p, bodies := &w.ctx.part, w.st.Bodies
	cur, next := w.st.Contacts, w.ctx.cache[:0]
	var tr []ContactState
	rec := w.rec != nil
	if rec {
		tr = w.rec.Contacts[:0]
	}
	w.markList(old.Active)
	in, sidx, mark, epoch, add := p.in, w.ctx.sidx, w.ctx.mark, w.ctx.epoch, old.Contacts
	o, r := 0, 0 // next entries of cur and add
	// upTo takes the entries of cur and add with keys below limit. Written
	// out in one loop: it is most of what a followed step with few bodies
	// costs.
	upTo := func(limit uint64) {
		for {
			kr := ^uint64(0)
			for ; r < len(add); r++ {
				c := &add[r]
				if !in[c.A] && (c.B == Ground || !in[c.B]) {
					kr = c.key()
					break
				}
			}
			ko := ^uint64(0)
			for ; o < len(cur); o++ {
				c := &cur[o]
				if sidx[c.A] >= 0 || bodies[c.A].Disabled {
					continue
				}
				if c.B == Ground {
					if in[c.A] || mark[c.A] != epoch {
						ko = c.key()
						break
					}
					continue
				}
				if sidx[c.B] >= 0 || bodies[c.B].Disabled {
					continue
				}
				if in[c.A] || in[c.B] || (mark[c.A] != epoch && mark[c.B] != epoch) {
					ko = c.key()
					break
				}
			}
			switch {
			case ko < kr && ko < limit:
				next = append(next, cur[o])
				o++
			case kr < limit:
				next = append(next, add[r])
				if rec {
					tr = append(tr, add[r])
				}
				r++
			default:
				return
			}
		}
	}
	for ci := range w.ctx.cons {
		c := &w.ctx.cons[ci]
		if c.count == 0 {
			continue
		}
		upTo(contactKey(c.a, c.b, w.ctx.info[c.first].feature))
		n := len(next)
		next = w.appendContacts(next, c)
		if rec {
			tr = append(tr, next[n:]...)
		}
	}
	upTo(^uint64(0))
	w.ctx.cache, w.st.Contacts = cur, next
	if rec {
		w.rec.Contacts = tr
	}
}
