package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cubelab/cube/game"
)

// TestSimSyncTest runs cube sim -synctest 8 on every scene: it tests
// every tick it can and finds nothing; and it refuses a span out of range.
func TestSimSyncTest(t *testing.T) {
	for _, scene := range game.Names() {
		args := []string{"sim", "-scene", scene, "-players", "2", "-preset", "average", "-seconds", "2", "-synctest", "8", "-json"}
		if scene == "drop" {
			args = append(args, "-bodies", "100")
		}
		code, out, errOut := runCube(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", scene, code, errOut)
		}
		var sum struct {
			SyncTests      uint64 `json:"sync_tests"`
			Mispredictions struct {
				Rewind uint64 `json:"rewind"`
			} `json:"mispredictions"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatalf("%s: %v", scene, err)
		}
		if sum.SyncTests < 50 || sum.Mispredictions.Rewind != 0 {
			t.Errorf("%s: %d ticks tested, %d rewinds gave other bits", scene, sum.SyncTests, sum.Mispredictions.Rewind)
		}
	}
	code, _, errOut := runCube("sim", "-synctest", "65", "-seconds", "1")
	if code != 2 || !strings.Contains(errOut, "1 to 64") {
		t.Errorf("-synctest 65: exit %d, %q", code, errOut)
	}
}
