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
	{"arena", 10000, 0x9d040d5ff071cd6e},
	{"pile", 3072, 0xd5bebb86aff2af03},
	{"swarm", 2048, 0x30e33be98f4f4707},
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

// revisionGoldens is the arena's golden hash for each engine revision
// since revisions began: a change to the step's bits changes the goldens
// and must bump EngineRevision with them (a record of the old bits is then
// refused, not reported as a divergence).
var revisionGoldens = map[uint64]uint64{
	0: 0x5ce9edad35c3aba1,
	1: 0x9d040d5ff071cd6e,
}

func TestEngineRevisionFollowsTheGoldens(t *testing.T) {
	if got := revisionGoldens[EngineRevision]; got != goldenHashes[0].hash || goldenHashes[0].scene != "arena" {
		t.Errorf("engine revision %d is listed with the arena golden %016x, the golden is %016x: a new golden needs a new EngineRevision", EngineRevision, got, goldenHashes[0].hash)
	}
}
