package protocol

import (
	"github.com/cubelab/cube/internal/tick"
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
	refs int32
}

// View is what a client holds of the server's bodies as of a snapshot: its
// baseline's view with the snapshot's bodies replaced (see wire's package
// documentation). The server keeps the same views. Static bodies are never
// sent; they stay as built.
type View struct {
	tick   uint32
	valid  bool
	n      int
	chunks []*chunk
}

// Tick returns the tick of the snapshot whose view v is.
func (v *View) Tick() uint32 { return v.tick }

// Start returns the first view, the one Reset made.
func (v *Views) Start() *View { return &v.start }

// Body returns body i of the view.
func (v *View) Body(i int) *physics.BodyState { return &v.chunks[i/chunkBodies].b[i%chunkBodies] }

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
	x.chunks, x.valid = x.chunks[:0], false
}

// whole makes x a view of all of state s at tick t, in chunks of its own.
func (v *Views) whole(x *View, t uint32, s *physics.State) {
	v.clear(x)
	n := len(s.Bodies)
	x.tick, x.valid, x.n = t, true, n
	for k := 0; k*chunkBodies < n; k++ {
		c := v.alloc()
		clear(c.b[:])
		copy(c.b[:], s.Bodies[k*chunkBodies:min(n, (k+1)*chunkBodies)])
		x.chunks = append(x.chunks, c)
	}
}

// Reset makes s the first view, at tick, and forgets every other.
func (v *Views) Reset(tick uint32, s *physics.State) {
	for i := range v.ring {
		v.clear(&v.ring[i])
	}
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

// Derive stores, over the oldest, the view of tick t: base with bodies
// idx set to their states in s.
func (v *Views) Derive(t uint32, base *View, idx []int32, s []physics.BodyState) {
	x := &v.ring[v.next]
	v.next = (v.next + 1) % ViewRing
	// base may be x itself: hold its chunks before letting x's go.
	v.scratch = append(v.scratch[:0], base.chunks...)
	for _, c := range v.scratch {
		c.refs++
	}
	n := base.n
	v.clear(x)
	x.chunks = append(x.chunks, v.scratch...)
	x.tick, x.valid, x.n = t, true, n
	for _, i := range idx {
		k := int(i) / chunkBodies
		if x.chunks[k] == v.scratch[k] {
			c := v.alloc()
			c.b = v.scratch[k].b
			v.drop(v.scratch[k])
			x.chunks[k] = c
		}
		x.chunks[k].b[int(i)%chunkBodies] = s[i]
	}
}
