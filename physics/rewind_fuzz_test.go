package physics

import "testing"

// FuzzRewind drives the pile (dynamic boxes on each other, a static box
// below dynamic ones, crossed edges, sleeping and waking) with arbitrary
// inputs (one byte per tick) after its scripted opening, rewinds to an
// arbitrary earlier tick and replays: the result must equal the straight run
// bit for bit, in place and in a fresh world.
func FuzzRewind(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 17, 17, 2, 2, 4, 8, 16, 0}, uint16(3))
	f.Add([]byte("WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWAAAAAAAAAAAAAAAAAAAAAAADDDDDDDDDDDDDDDDD  JJJJ"), uint16(40))
	f.Add(make([]byte, 300), uint16(299))
	f.Fuzz(func(t *testing.T, inputs []byte, back uint16) {
		if len(inputs) == 0 || len(inputs) > 2048 {
			return
		}
		start := int(back) % len(inputs)
		w := mustPile()
		sc := testScenes[1]
		if err := sc.run(w, 160); err != nil { // asleep, then into the plank
			t.Fatal(err)
		}
		var saved State
		for k, c := range inputs {
			if k == start {
				w.Save(&saved)
			}
			if err := push(w, pileCube, drive(c)&driveBits); err != nil {
				t.Fatal(err)
			}
			w.Step()
		}
		want := w.Hash()
		for _, r := range []*World{w, mustPile()} {
			if err := r.Restore(&saved); err != nil {
				t.Fatal(err)
			}
			for _, c := range inputs[start:] {
				if err := push(r, pileCube, drive(c)&driveBits); err != nil {
					t.Fatal(err)
				}
				r.Step()
			}
			if r.Hash() != want {
				t.Fatalf("rewind to %d of %d: %016x != %016x", start, len(inputs), r.Hash(), want)
			}
		}
	})
}
