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
	{"arena", 10000, 0x257bf2c26741b184},
	{"pile", 3072, 0x3676ba2867f76caa},
	{"swarm", 2048, 0x5be634a2ac575dae},
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

// revisionGoldens holds the arena's and the pile's golden hashes for
// each engine revision since revisions began: a change to the step's bits
// changes the goldens and must bump EngineRevision with them (a record of
// the old bits is then refused, not reported as a divergence). The pile
// is listed too because the arena, one cube alone, misses changes to
// contacts between bodies and to sleep (revision 2 left it as it was).
var revisionGoldens = [...][2]uint64{
	0: {0x5ce9edad35c3aba1, 0xbe10ed607b06e25a},
	1: {0x9d040d5ff071cd6e, 0xd5bebb86aff2af03},
	2: {0x9d040d5ff071cd6e, 0xb02a546c6d55af17},
	3: {0x9d040d5ff071cd6e, 0xa2d0f0aadb93d74c},
	4: {0x257bf2c26741b184, 0xb137e2b288c29daf},
	5: {0x257bf2c26741b184, 0x3676ba2867f76caa},
}

func TestEngineRevisionFollowsTheGoldens(t *testing.T) {
	if goldenHashes[0].scene != "arena" || goldenHashes[1].scene != "pile" {
		t.Fatal("goldenHashes no longer starts with the arena and the pile")
	}
	now := [2]uint64{goldenHashes[0].hash, goldenHashes[1].hash}
	if EngineRevision >= uint64(len(revisionGoldens)) || revisionGoldens[EngineRevision] != now {
		t.Fatalf("engine revision %d is not listed with the goldens %016x: a new golden needs a new EngineRevision", EngineRevision, now)
	}
	for r := range revisionGoldens[:EngineRevision] {
		if revisionGoldens[r] == now {
			t.Errorf("engine revision %d has the goldens of revision %d", EngineRevision, r)
		}
	}
}
