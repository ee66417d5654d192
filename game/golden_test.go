package game

import "testing"

// goldenHashes are the state hashes of three scenes after their scripted
// ticks, as `cube hash -scene NAME -ticks N` prints them. They were not
// derived from this test: scripts/crossbuild-hash.sh built `cube` for amd64
// GOAMD64=v1 and v3, 386 and arm64 (run under qemu) and all four printed
// these values before they were committed here. A change to the engine or to
// the scenes that changes them must say why in its commit.
var goldenHashes = []struct {
	scene string
	ticks int
	hash  uint64
}{
	{"arena", 10000, 0x257bf2c26741b184},
	{"pyramid", 3840, 0x42639a87416740f1},
	{"cubes", 2048, 0x1b0968a795d3ecdf},
}

func TestGoldenHashes(t *testing.T) {
	for _, g := range goldenHashes {
		if testing.Short() && g.scene == "cubes" {
			continue
		}
		w, sc := MustBuild(g.scene)
		if err := sc.RunScript(w, g.ticks); err != nil {
			t.Fatal(err)
		}
		if got := w.Hash(); got != g.hash {
			t.Errorf("%s: hash after %d ticks = %016x, golden %016x", g.scene, g.ticks, got, g.hash)
		}
	}
}
