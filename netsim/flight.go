package netsim

import "time"

// flight is the heap entry of one packet copy in flight. It holds no
// pointers, so moving entries costs no write barriers; the payload and
// send time live in the link's slot table.
type flight struct {
	deliver time.Duration // when Receive may hand it out
	seq     uint64        // per-link copy number: the tie-break, unique
	slot    int32         // index into Link.slots
}

// before is the heap's total order: delivery time, then copy number. Copy
// numbers are unique and increase in send order (a duplicate's follows its
// original's), so equal delivery times come out in the order they were sent.
func (f *flight) before(g *flight) bool {
	if f.deliver != g.deliver {
		return f.deliver < g.deliver
	}
	return f.seq < g.seq
}

// flightHeap is a binary min-heap of packets in flight, stored by value so
// that pushing and popping allocate nothing once the slice has grown.
// (container/heap would box every element in an interface.)
type flightHeap struct {
	items []flight
}

func (h *flightHeap) len() int { return len(h.items) }

// min returns the earliest packet; the heap must not be empty.
func (h *flightHeap) min() *flight { return &h.items[0] }

func (h *flightHeap) push(f flight) {
	h.items = append(h.items, f)
	a := h.items
	i := len(a) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !f.before(&a[parent]) {
			break
		}
		a[i] = a[parent]
		i = parent
	}
	a[i] = f
}

// pop removes and returns the earliest packet; the heap must not be empty.
func (h *flightHeap) pop() flight {
	a := h.items
	top := a[0]
	last := len(a) - 1
	x := a[last]
	a = a[:last]
	h.items = a
	// Sift the former last entry down from the root, moving the smaller
	// child up until x fits.
	i := 0
	for {
		c := 2*i + 1
		if c >= len(a) {
			break
		}
		if r := c + 1; r < len(a) && a[r].before(&a[c]) {
			c = r
		}
		if !a[c].before(&x) {
			break
		}
		a[i] = a[c]
		i = c
	}
	if last > 0 {
		a[i] = x
	}
	return top
}

// clear empties the heap.
func (h *flightHeap) clear() { h.items = h.items[:0] }
