package game

import (
	"testing"

	"github.com/cubelab/cube/physics"
)

// TestBlindPilotIsSeededAndBalanced: the same seed gives the same keys and
// another seed others; the first leg heads from the start spot into the
// scene's middle; after it every way out is followed by the opposite keys
// for as long, so the held direction keys cancel leg by leg.
func TestBlindPilotIsSeededAndBalanced(t *testing.T) {
	_, sc, err := Build("cubes", physics.DefaultConfig(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := physics.Vec3{X: 3, Z: 17}
	run := func(seed uint64, n int) []Input {
		a := NewBlindPilot(sc, seed, start)
		ins := make([]Input, n)
		for i := range ins {
			ins[i] = a.Input()
		}
		return ins
	}
	a, b, c := run(7, 4000), run(7, 4000), run(8, 4000)
	same, differ := true, false
	for i := range a {
		same = same && a[i] == b[i]
		differ = differ || a[i] != c[i]
	}
	if !same || !differ {
		t.Fatalf("same seed same keys %v, another seed other keys %v", same, differ)
	}
	const dirs = Forward | Left | Back | Right
	if a[0]&dirs != Forward|Left {
		t.Errorf("first leg from (3, 17) holds %v, want WA towards the middle", a[0])
	}
	if a[0]&Pull == 0 {
		t.Error("the first leg of a scene with a pull does not pull")
	}
	// After the first leg, the net ticks held on each axis never pass one
	// leg's longest (191), and come back to nothing leg after leg.
	first := 0
	for first < len(a) && a[first]&dirs == a[0]&dirs {
		first++
	}
	var x, z, home int
	for i := first; i < len(a); i++ {
		k := a[i] & dirs
		if k&Right != 0 {
			x++
		}
		if k&Left != 0 {
			x--
		}
		if k&Back != 0 {
			z++
		}
		if k&Forward != 0 {
			z--
		}
		if max(x, -x, z, -z) > 191 {
			t.Fatalf("tick %d: net %d ticks on X, %d on Z", i, x, z)
		}
		if x == 0 && z == 0 {
			home++
		}
	}
	if home < 10 {
		t.Errorf("back where it began after its first leg %d times in 4000 ticks", home)
	}
}
