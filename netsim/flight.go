package netsim

import "time"

// flight is one packet copy travelling on a link.
type flight struct {
	deliver time.Duration // when Receive may hand it out
	seq     uint64        // per-link copy number: the tie-break, unique
	sent    time.Duration // when Send was called
	data    []byte        // owned copy of the payload
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
		if !a[i].before(&a[parent]) {
			break
		}
		a[i], a[parent] = a[parent], a[i]
		i = parent
	}
}

// pop removes and returns the earliest packet; the heap must not be empty.
func (h *flightHeap) pop() flight {
	a := h.items
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a[last] = flight{} // drop the reference held beyond len
	a = a[:last]
	h.items = a
	i := 0
	for {
		l := 2*i + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && a[r].before(&a[l]) {
			m = r
		}
		if !a[m].before(&a[i]) {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	return top
}

// drain appends every payload buffer in the heap to free and empties it.
func (h *flightHeap) drain(free [][]byte) [][]byte {
	for i := range h.items {
		free = append(free, h.items[i].data)
		h.items[i] = flight{}
	}
	h.items = h.items[:0]
	return free
}
