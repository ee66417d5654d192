package physics

// Set is a set of body indices, with their list in the order they were
// added: what a partial re-simulation simulates (see World.Follow).
type Set struct {
	in   []bool
	list []int32
}

// Reset empties s and sizes it for a world of n bodies.
func (s *Set) Reset(n int) {
	for _, i := range s.list {
		if int(i) < len(s.in) {
			s.in[i] = false
		}
	}
	s.list = s.list[:0]
	if len(s.in) != n {
		if cap(s.in) >= n {
			s.in = s.in[:n]
		} else {
			s.in = make([]bool, n)
		}
		clear(s.in)
	}
}

// Add adds body i and reports whether it was new.
func (s *Set) Add(i int32) bool {
	if s.in[i] {
		return false
	}
	s.in[i] = true
	s.list = append(s.list, i)
	return true
}

// Has reports whether body i is in s; Ground and indices outside the world
// never are.
func (s *Set) Has(i int32) bool { return i >= 0 && int(i) < len(s.in) && s.in[i] }

// Len returns the number of bodies in s.
func (s *Set) Len() int { return len(s.list) }

// List returns the bodies of s in the order they were added. The slice is
// s's own: read it, do not keep it.
func (s *Set) List() []int32 { return s.list }

// AddDiff adds the bodies whose state differs between a and b (any bit),
// and both bodies of every contact that one cache holds and the other does
// not, or holds with other impulses. a and b must have the same number of
// bodies, that of s.
func (s *Set) AddDiff(a, b *State) {
	for i := range a.Bodies {
		if bodyWords(&a.Bodies[i]) != bodyWords(&b.Bodies[i]) {
			s.Add(int32(i))
		}
	}
	x, y := a.Contacts, b.Contacts
	addPair := func(c *ContactState) {
		s.Add(c.A)
		if c.B != Ground {
			s.Add(c.B)
		}
	}
	for len(x) > 0 || len(y) > 0 {
		switch {
		case len(y) == 0 || (len(x) > 0 && x[0].key() < y[0].key()):
			addPair(&x[0])
			x = x[1:]
		case len(x) == 0 || y[0].key() < x[0].key():
			addPair(&y[0])
			y = y[1:]
		default:
			if contactWords(&x[0]) != contactWords(&y[0]) {
				addPair(&x[0])
			}
			x, y = x[1:], y[1:]
		}
	}
}
