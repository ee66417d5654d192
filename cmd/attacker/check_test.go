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
		{"memory", func(o *outcome) { o.peakKB = maxPeakKB + 1 }, 1, false},
	}
	for _, c := range cases {
		o := good
		c.edit(&o)
		p, timing := check(phase{name: "input-flood"}, o, base)
		if len(p) != c.problems || timing != c.timing {
			t.Errorf("%s: %d problems %q, timing %v; want %d, %v", c.name, len(p), p, timing, c.problems, c.timing)
		}
	}
	// The p99 bound follows a slow baseline: three times its p99, and no
	// less than 2 ms; the baseline itself is held to 2 ms.
	slow := base
	slow.p99 = 1400
	o := good
	o.p99 = 4200
	if p, timing := check(phase{name: "input-flood"}, o, slow); len(p) != 1 || !timing {
		t.Errorf("p99 4200 µs against a baseline of 1400: %q, timing %v; want one timing problem", p, timing)
	}
	o.p99 = 4100
	if p, _ := check(phase{name: "input-flood"}, o, slow); len(p) != 0 {
		t.Errorf("p99 4100 µs against a baseline of 1400: %q; want none", p)
	}
	o.p99 = 2100
	if p, _ := check(phase{name: "none"}, o, slow); len(p) != 1 {
		t.Errorf("baseline p99 2100 µs: %q; want one problem", p)
	}
	// An attack from many hosts is not held to the clients' repeated
	// ticks (its own CPU delays them), but to everything else.
	many := phase{name: "holders", manyHosts: true}
	o = good
	o.repeated = [2]uint64{50, 60}
	if p, _ := check(many, o, base); len(p) != 0 {
		t.Errorf("holders with many repeated ticks: %q", p)
	}
	o.p99 = 2500
	if p, timing := check(many, o, base); len(p) != 1 || !timing {
		t.Errorf("holders with a slow tick: %q, timing %v", p, timing)
	}
}
