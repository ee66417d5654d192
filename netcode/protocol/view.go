package protocol

import (
	"github.com/cubelab/cube/netcode/tick"
	"github.com/cubelab/cube/physics"
)

// ViewRing is how many snapshot views each end holds: 4 s of snapshots at
// 64 Hz, longer than any round trip the presets make.
const ViewRing = 256

// chunkBodies is the number of bodies a view shares or copies at once.
const chunkBodies = 8

// chunk is a run of bodies of a view. Views share the chunks they did not
// change, so a view costs its pointers and the chunks its snapshot touched,
// not a whole world. refs counts the views that hold it; a chunk no view
// holds goes back to the free list, so that views are made without
// allocating once the ring has turned.
type chunk struct {
	b    [chunkBodies]physics.BodyState
	src  [chunkBodies]uint32 // the tick of the snapshot (or whole view) each body's state came from
	refs int32
}

// View is what a client holds of the server's bodies as of a snapshot: its
// baseline's view with the snapshot's bodies replaced (see wire's package
// documentation). The server keeps the same views. Static bodies are never
// sent; they stay as built.
type View struct {
	tick    uint32
	valid   bool
	whole   bool // made whole (Reset, Add): every body is its own
	n       int
	chunks  []*chunk
	carried []int32 // the bodies its snapshot carried, in increasing order
}

// Tick returns the tick of the snapshot whose view v is.
func (v *View) Tick() uint32 { return v.tick }

// Start returns the first view, the one Reset made.
func (v *Views) Start() *View { return &v.start }

// Body returns body i of the view.
func (v *View) Body(i int) *physics.BodyState { return &v.chunks[i/chunkBodies].b[i%chunkBodies] }

// Source returns the tick of the snapshot body i's state in the view came
// from (the tick of a whole view for the bodies it was made with).
func (v *View) Source(i int) uint32 { return v.chunks[i/chunkBodies].src[i%chunkBodies] }

// Carried returns the bodies the view's own snapshot carried, in
// increasing order (nil for a whole view, whose every body is its own).
func (v *View) Carried() []int32 { return v.carried }

// Fill copies the view's bodies into dst, reusing it, for wire.DecodeSnapshot.
func (v *View) Fill(dst []physics.BodyState) []physics.BodyState {
	dst = dst[:0]
	for i := 0; i < v.n; i++ {
		dst = append(dst, *v.Body(i))
	}
	return dst
}

// Views holds the session's first view and the views of the newest
// ViewRing snapshots, at one end of a session.
type Views struct {
	start   View
	ring    [ViewRing]View
	ref     View // the last reference Baseline composed
	named   [MaskBits]*View
	next    int // slot the next view goes to
	scratch []*chunk
	free    []*chunk // chunks no view holds
}

// alloc returns a chunk held once, from the free list when it has one.
func (v *Views) alloc() *chunk {
	var c *chunk
	if n := len(v.free); n > 0 {
		c, v.free = v.free[n-1], v.free[:n-1]
	} else {
		c = new(chunk)
	}
	c.refs = 1
	return c
}

// drop lets go of c once; when no view holds it, it is free.
func (v *Views) drop(c *chunk) {
	if c.refs--; c.refs == 0 {
		v.free = append(v.free, c)
	}
}

// clear lets go of view x's chunks and marks it unused.
func (v *Views) clear(x *View) {
	for _, c := range x.chunks {
		v.drop(c)
	}
	x.chunks, x.valid, x.whole, x.carried = x.chunks[:0], false, false, x.carried[:0]
}

// whole makes x a view of all of state s at tick t, in chunks of its own.
func (v *Views) whole(x *View, t uint32, s *physics.State) {
	v.clear(x)
	n := len(s.Bodies)
	x.tick, x.valid, x.whole, x.n = t, true, true, n
	for k := 0; k*chunkBodies < n; k++ {
		c := v.alloc()
		clear(c.b[:])
		copy(c.b[:], s.Bodies[k*chunkBodies:min(n, (k+1)*chunkBodies)])
		for j := range c.src {
			c.src[j] = t
		}
		x.chunks = append(x.chunks, c)
	}
}

// Reset makes s the first view, at tick, and forgets every other.
func (v *Views) Reset(tick uint32, s *physics.State) {
	for i := range v.ring {
		v.clear(&v.ring[i])
	}
	v.clear(&v.ref)
	v.whole(&v.start, tick, s)
}

// Add stores, over the oldest, a whole view of state s at tick t (a
// transfer's), keeping the others.
func (v *Views) Add(t uint32, s *physics.State) {
	x := &v.ring[v.next]
	v.next = (v.next + 1) % ViewRing
	v.whole(x, t, s)
}

// Get returns the view of tick t, if held.
func (v *Views) Get(t uint32) *View {
	for i := range v.ring {
		if x := &v.ring[i]; x.valid && x.tick == t {
			return x
		}
	}
	if v.start.valid && v.start.tick == t {
		return &v.start
	}
	return nil
}

// Newest returns the newest view held.
func (v *Views) Newest() *View {
	var best *View
	for i := range v.ring {
		if x := &v.ring[i]; x.valid && (best == nil || tick.After(x.tick, best.tick)) {
			best = x
		}
	}
	if best == nil && v.start.valid {
		return &v.start
	}
	return best
}

// Derive stores, over the oldest, the view of tick t: base (a held view or
// the reference Baseline returned) with bodies idx, in increasing order,
// set to their states in s.
func (v *Views) Derive(t uint32, base *View, idx []int32, s []physics.BodyState) {
	x := &v.ring[v.next]
	v.next = (v.next + 1) % ViewRing
	v.share(x, base)
	x.tick = t
	x.carried = append(x.carried, idx...)
	for _, i := range idx {
		v.set(x, int(i), &s[i], t)
	}
}

// share makes x a view of base's bodies, sharing its chunks, held by no
// snapshot of its own yet (x's tick, marks and carried bodies cleared).
func (v *Views) share(x, base *View) {
	// base may be x itself: hold its chunks before letting x's go.
	v.scratch = append(v.scratch[:0], base.chunks...)
	for _, c := range v.scratch {
		c.refs++
	}
	n := base.n
	v.clear(x)
	x.chunks = append(x.chunks, v.scratch...)
	x.valid, x.n = true, n
}

// set writes body i of x, from snapshot src, copying its chunk first when
// another view shares it.
func (v *Views) set(x *View, i int, b *physics.BodyState, src uint32) {
	k := i / chunkBodies
	if old := x.chunks[k]; old.refs > 1 {
		c := v.alloc()
		c.b, c.src = old.b, old.src
		v.drop(old)
		x.chunks[k] = c
	}
	x.chunks[k].b[i%chunkBodies] = *b
	x.chunks[k].src[i%chunkBodies] = src
}

// MaskBits is how many ticks before a baseline an ack mask reaches: bit i
// of a mask names the view of tick base-1-i.
const MaskBits = 64

// window fills v.named with the views of the ring in the MaskBits ticks
// before base (nil where none is held).
func (v *Views) window(base uint32) {
	clear(v.named[:])
	for i := range v.ring {
		if x := &v.ring[i]; x.valid {
			if d := base - 1 - x.tick; d < MaskBits {
				v.named[d] = x
			}
		}
	}
}

// Mask returns the ack mask of the views held in the MaskBits ticks before
// base: a client says so what it holds, and a server keeps of what a
// client says only what it holds too.
func (v *Views) Mask(base uint32) uint64 {
	v.window(base)
	var m uint64
	for i, x := range v.named {
		if x != nil {
			m |= 1 << i
		}
	}
	return m
}

// Newer returns the ack mask of the views held in the MaskBits ticks before
// base's that carried a body in a state newer than base holds: the views a
// reference of base could take a body from. A client names those (not
// every view it holds, most of which base already took in).
func (v *Views) Newer(base *View) uint64 {
	v.window(base.tick)
	var m uint64
	for i, a := range v.named {
		if a == nil {
			continue
		}
		if a.whole {
			m |= 1 << i // rare (a transfer's view): taken as giving
			continue
		}
		for _, j := range a.carried {
			if int(j) < base.n && tick.After(a.tick, base.Source(int(j))) {
				m |= 1 << i
				break
			}
		}
	}
	return m
}

// Baseline returns the reference a snapshot with baseline base and ack mask
// mask is encoded against: base's view, then, for every view the mask
// names from the oldest, the bodies its snapshot carried where their state
// is newer (by the tick of the snapshot it came from) than the one
// held. The result is base's view with the bodies of every snapshot named
// applied in tick order, the same at both ends whatever order the acks
// came in. It is base itself when mask is 0, else valid until the next
// Baseline or Reset, with base's tick.
//
// used is the part of mask that gave a body (a view whose bodies base
// already holds, or newer ones, gives none): the same reference comes of
// base and used alone, so a server sends used. When the mask names a view
// not held, it returns nil and that view's tick.
func (v *Views) Baseline(base *View, mask uint64) (ref *View, used uint64, missing uint32) {
	if mask == 0 {
		return base, 0, 0
	}
	v.window(base.tick)
	for i := range MaskBits {
		if mask>>i&1 != 0 && v.named[i] == nil {
			return nil, 0, base.tick - 1 - uint32(i)
		}
	}
	x := &v.ref
	v.share(x, base)
	x.tick = base.tick
	for i := MaskBits - 1; i >= 0; i-- {
		a := v.named[i]
		if mask>>i&1 == 0 {
			continue
		}
		if a.whole {
			for j := range min(a.n, x.n) {
				v.take(x, a, j)
			}
			continue
		}
		for _, j := range a.carried {
			if int(j) < x.n {
				v.take(x, a, int(j))
			}
		}
	}
	// A view is used if the reference holds a body from it that base
	// does not.
	for i := range MaskBits {
		a := v.named[i]
		if mask>>i&1 == 0 {
			continue
		}
		gives := func(j int) bool { return x.Source(j) == a.tick && base.Source(j) != a.tick }
		if a.whole {
			for j := range min(a.n, x.n) {
				if gives(j) {
					used |= 1 << i
					break
				}
			}
			continue
		}
		for _, j := range a.carried {
			if int(j) < x.n && gives(int(j)) {
				used |= 1 << i
				break
			}
		}
	}
	return x, used, 0
}

// take sets body j of x to a's when a's comes from a newer snapshot.
func (v *Views) take(x, a *View, j int) {
	if src := a.Source(j); tick.After(src, x.Source(j)) {
		v.set(x, j, a.Body(j), src)
	}
}
