package physics

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// straightRun steps scene sc n ticks with its scripted drives and returns
// the state before each tick and the final one: states[t] is the state at
// tick t.
func straightRun(t testing.TB, sc *testScene, n int) []State {
	w := sc.build()
	states := make([]State, n+1)
	for k := 0; k < n; k++ {
		w.Save(&states[k])
		if err := sc.step(w); err != nil {
			t.Fatal(err)
		}
	}
	w.Save(&states[n])
	return states
}

func TestRewindReplayIsBitIdentical(t *testing.T) {
	const n = 2100
	for _, sc := range testScenes {
		states := straightRun(t, &sc, n)
		rng := rand.New(rand.NewPCG(1, 2))
		w := sc.build()
		for trial := 0; trial < 40; trial++ {
			depth := 1 + rng.IntN(1024)
			if trial == 0 {
				depth = 1024
			}
			end := depth + rng.IntN(n-depth+1)
			start := end - depth
			// In place: w has been running other trials; restore over it.
			for _, world := range []*World{w, sc.build()} {
				if err := world.Restore(&states[start]); err != nil {
					t.Fatal(err)
				}
				if err := sc.run(world, depth); err != nil {
					t.Fatal(err)
				}
				if !world.State().Equal(&states[end]) {
					d := Diff(world.State(), &states[end], 3)
					t.Fatalf("%s: rewind to %d, replay %d ticks: differs from the straight run: %v", sc.name, start, depth, d)
				}
			}
		}
	}
}

func TestRestoreFreshEqualsInPlace(t *testing.T) {
	for _, sc := range testScenes {
		states := straightRun(t, &sc, 700)
		a := sc.build()
		if err := sc.run(a, 50); err != nil {
			t.Fatal(err)
		}
		b := sc.build()
		for _, w := range []*World{a, b} {
			if err := w.Restore(&states[600]); err != nil {
				t.Fatal(err)
			}
			if err := sc.run(w, 100); err != nil {
				t.Fatal(err)
			}
		}
		if a.Hash() != b.Hash() || a.Hash() != states[700].Hash() {
			t.Fatalf("%s: in place %016x, fresh %016x, straight %016x", sc.name, a.Hash(), b.Hash(), states[700].Hash())
		}
		// Load, unchecked, rewinds the same way, in place and fresh.
		for _, w := range []*World{a, sc.build()} {
			w.Load(&states[600])
			if err := sc.run(w, 100); err != nil {
				t.Fatal(err)
			}
			if !w.State().Equal(&states[700]) {
				t.Fatalf("%s: after Load: %v", sc.name, Diff(w.State(), &states[700], 3))
			}
		}
	}
}

func TestSaveRestoreDoNotAllocate(t *testing.T) {
	w := mustArena()
	if err := runArena(w, 300); err != nil {
		t.Fatal(err)
	}
	var s State
	w.Save(&s)
	allocs := testing.AllocsPerRun(100, func() {
		w.Save(&s)
		if err := w.Restore(&s); err != nil {
			t.Fatal(err)
		}
		w.Step()
		w.Save(&s)
		w.Load(&s)
		w.Step()
	})
	if allocs != 0 {
		t.Fatalf("Save+Restore+Step and Save+Load+Step allocate %v times", allocs)
	}
}

func TestHashCoversEveryField(t *testing.T) {
	w := mustArena()
	if err := runArena(w, 140); err != nil {
		t.Fatal(err)
	}
	var base State
	w.Save(&base)
	if len(base.Contacts) == 0 {
		t.Fatal("want contacts in the test state")
	}
	h := base.Hash()
	if got := fnv1aWords(encodingWords(AppendState(nil, &base))); got != h {
		t.Fatalf("Hash %016x != word-wise FNV-1a of the encoding %016x", h, got)
	}
	// Flip the lowest bit of every word in turn: the hash must change.
	for i := 0; i < bodyWordCount; i++ {
		var s State
		s.CopyFrom(&base)
		ws := bodyWords(&s.Bodies[arenaCube])
		ws[i] ^= 1
		setBodyWords(&s.Bodies[arenaCube], &ws)
		if s.Hash() == h || s.Equal(&base) {
			t.Errorf("body field %s not covered", bodyFields[i])
		}
	}
	mods := []func(c *ContactState){
		func(c *ContactState) { c.A ^= 1 }, func(c *ContactState) { c.B ^= 1 },
		func(c *ContactState) { c.Feature ^= 1 },
		func(c *ContactState) { c.Pn += 1e-9 }, func(c *ContactState) { c.Pt1 += 1e-9 },
		func(c *ContactState) { c.Pt2 += 1e-9 },
	}
	for i, mod := range mods {
		var s State
		s.CopyFrom(&base)
		mod(&s.Contacts[0])
		if s.Hash() == h || s.Equal(&base) {
			t.Errorf("contact field %s not covered", contactFields[i])
		}
	}
	var s State
	s.CopyFrom(&base)
	s.Tick++
	if s.Hash() == h {
		t.Error("tick not covered")
	}
}

// encodingWords reads an encoding written by AppendState as the words
// State.Hash feeds to FNV-1a: the 64-bit fields and the pairs of 32-bit
// fields (tick and body count, rest and flags, A and B) as little-endian
// 64-bit words, the contact count and each feature as a 32-bit word.
func encodingWords(b []byte) []uint64 {
	le := binary.LittleEndian
	var ws []uint64
	u64 := func() { ws = append(ws, le.Uint64(b)); b = b[8:] }
	u32 := func() { ws = append(ws, uint64(le.Uint32(b))); b = b[4:] }
	nb := le.Uint32(b[4:])
	u64()
	for i := uint32(0); i < nb; i++ {
		for k := 0; k < bodyFloatWords+1; k++ {
			u64()
		}
	}
	nc := le.Uint32(b)
	u32()
	for i := uint32(0); i < nc; i++ {
		u64()
		u32()
		u64()
		u64()
		u64()
	}
	if len(b) != 0 {
		panic("encodingWords: bytes left over")
	}
	return ws
}

// fnv1aWords returns the word-wise FNV-1a 64 hash of ws (see State.Hash).
func fnv1aWords(ws []uint64) uint64 {
	h := uint64(fnvOffset)
	for _, x := range ws {
		h = (h ^ x) * fnvPrime
	}
	return h
}

func TestWarmStartIsInTheState(t *testing.T) {
	// Clearing the contact cache changes what follows: the cache evolves and
	// so belongs in the state (DESIGN.md rule 4).
	states := straightRun(t, &testScenes[0], 201)
	w := mustArena()
	s := states[200]
	s.Contacts = nil
	if err := w.Restore(&s); err != nil {
		t.Fatal(err)
	}
	if err := runArena(w, 1); err != nil {
		t.Fatal(err)
	}
	if w.Hash() == states[201].Hash() {
		t.Fatal("dropping the warm-start cache changed nothing; is it used?")
	}
}

func TestDiffNamesTheField(t *testing.T) {
	states := straightRun(t, &testScenes[0], 10)
	var s State
	s.CopyFrom(&states[10])
	s.Bodies[arenaCube].Vel.Y += 1e-12
	d := Diff(&states[10], &s, 0)
	if len(d) != 1 || d[0].Where != "body 0" || d[0].Field != "vel.y" {
		t.Fatalf("diff = %v, want one difference in body 0 vel.y", d)
	}
	if str := d[0].String(); len(str) < 40 {
		t.Fatalf("diff text too thin: %q", str)
	}
}
