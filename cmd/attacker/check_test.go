package main

import "testing"

// TestCheckTiming: only a phase that broke nothing but the wall-clock
// bounds is marked for a second run; being out of sync or refused fails
// at once, alone or with a timing problem.
func TestCheckTiming(t *testing.T) {
	base := outcome{repeated: [2]uint64{3, 5}}
	good := outcome{repeated: [2]uint64{4, 16}, p99: 500, inSync: [2]bool{true, true}, joined: true}
	cases := []struct {
		name     string
		edit     func(*outcome)
		problems int
		timing   bool
	}{
		{"clean", func(*outcome) {}, 0, false},
		{"repeated", func(o *outcome) { o.repeated[1] = 17 }, 1, true},
		{"p99", func(o *outcome) { o.p99 = 2000 }, 1, true},
		{"both timing", func(o *outcome) { o.repeated[0] = 40; o.p99 = 3000 }, 2, true},
		{"out of sync", func(o *outcome) { o.inSync[0] = false }, 1, false},
		{"not joined and slow", func(o *outcome) { o.joined = false; o.p99 = 2500 }, 2, false},
	}
	for _, c := range cases {
		o := good
		c.edit(&o)
		p, timing := check("input-flood", o, base)
		if len(p) != c.problems || timing != c.timing {
			t.Errorf("%s: %d problems %q, timing %v; want %d, %v", c.name, len(p), p, timing, c.problems, c.timing)
		}
	}
}
