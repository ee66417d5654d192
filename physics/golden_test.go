package physics

import "testing"

// goldenHashes are the state hashes of the test scenes after their scripted
// ticks. They were not derived from this test: for the arena, `cube hash
// -scene arena` (the same scene, built by package game) printed it on
// amd64 GOAMD64=v1 and v3, 386 and arm64 (under qemu) before it was
// committed; for the pile and the swarm, this test printed it when run as
// amd64 v1 and v3, 386 and arm64 (under qemu) code. A change to the engine that changes them
// must say why in its commit.
var goldenHashes = []struct {
	scene string
	ticks int
	hash  uint64
}{
	{"arena", 10000, 0x5ce9edad35c3aba1},
	{"pile", 3072, 0xbe10ed607b06e25a},
	{"swarm", 2048, 0x2d065a9b9cbe6cb0},
}

func TestGoldenHash(t *testing.T) {
	for _, g := range goldenHashes {
		for _, sc := range testScenes {
			if sc.name != g.scene {
				continue
			}
			w := sc.build()
			if err := sc.run(w, g.ticks); err != nil {
				t.Fatal(err)
			}
			if got := w.Hash(); got != g.hash {
				t.Errorf("%s: hash after %d ticks = %016x, golden %016x", g.scene, g.ticks, got, g.hash)
			}
		}
	}
}
