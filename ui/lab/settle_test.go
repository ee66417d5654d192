package lab

import (
	"testing"
	"time"

	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/session"
)

// settleBound is how soon after a preset key, by preset, the client's
// input buffer at the server is back at 0 or above (the running mean of
// what the server reports) and stays there, as docs/window.md states it:
// a longer latency makes the inputs in flight late until the client has
// moved its clock ahead, and the lossier presets' bursts delay the samples
// that tell it how far.
var settleBound = map[string]time.Duration{
	"perfect": time.Second / 2, "lan": time.Second / 2, "good": time.Second,
	"average": time.Second, "bad": 2 * time.Second, "terrible": 5 * time.Second, "outage": 15 * time.Second,
}

// TestSettlingAfterAPresetChange: from the window's default preset (good)
// and from perfect, 8 s in, each preset key: the input buffer is back at 0
// or above within the preset's bound and stays there for the 20 s after
// the key; from then on no input arrives late on the presets up to
// average, a few on bad (10 % loss: every message that carries an input in
// time lost), and more on terrible and outage, which lose whole bursts of
// messages: loss, not time sync.
func TestSettlingAfterAPresetChange(t *testing.T) {
	const tick = time.Second / 64
	for key := 1; key <= 7; key++ {
		to, err := netsim.PresetByKey(key)
		if err != nil {
			t.Fatal(err)
		}
		bound, ok := settleBound[to.Name]
		if !ok {
			t.Fatalf("no bound for preset %s", to.Name)
		}
		for _, from := range []int{3, 1} {
			l, err := New(session.DefaultConfig(), true, 0)
			if err != nil {
				t.Fatal(err)
			}
			run := func(ticks int, each func(i int)) {
				for i := 1; i <= ticks; i++ {
					if err := l.Tick(0); err != nil {
						t.Fatal(err)
					}
					each(i)
				}
			}
			if err := l.Act(ActPreset1 + Action(from-1)); err != nil {
				t.Fatal(err)
			}
			run(8*64, func(int) {})
			if err := l.Act(ActPreset1 + Action(key-1)); err != nil {
				t.Fatal(err)
			}
			c := l.Client()
			negative := 0 // the last tick after the key with the buffer below 0
			var lateAtBound, late uint64
			run(20*64, func(i int) {
				if c.Sync.Buffer < 0 {
					negative = i
				}
				if time.Duration(i)*tick == bound {
					lateAtBound = l.play.Late()
				}
				late = l.play.Late()
			})
			settled := time.Duration(negative) * tick
			t.Logf("key %d to %s: settled in %v (bound %v); %d late inputs after the bound", from, to.Name, settled, bound, late-lateAtBound)
			if settled > bound {
				t.Errorf("key %d to %s: the input buffer was below 0 until %v after the key, bound %v", from, to.Name, settled, bound)
			}
			if n := late - lateAtBound; (key <= 4 && n > 0) || (key == 5 && n > 8) {
				t.Errorf("key %d to %s: %d inputs late after the bound", from, to.Name, n)
			}
		}
	}
}
