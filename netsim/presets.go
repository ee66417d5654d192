package netsim

import (
	"fmt"
	"strings"
	"time"
)

// Preset is a named set of conditions. Key is the digit, 1 to 7, that
// selects it in the demo; Name is what users type on the command line.
type Preset struct {
	Key        int
	Name       string
	Conditions Conditions
}

// presets is the table returned by Presets.
var presets = [...]Preset{
	{1, "perfect", Conditions{}},
	{2, "lan", Conditions{Latency: 5 * time.Millisecond, Jitter: 1 * time.Millisecond}},
	{3, "good", Conditions{Latency: 40 * time.Millisecond, Jitter: 6 * time.Millisecond, Loss: 0.002}},
	{4, "average", Conditions{Latency: 100 * time.Millisecond, Jitter: 15 * time.Millisecond, Loss: 0.02}},
	{5, "bad", Conditions{Latency: 250 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.10}},
	{6, "terrible", Conditions{Latency: 500 * time.Millisecond, Jitter: 50 * time.Millisecond, Loss: 0.25, BurstLen: 4}},
	{7, "outage", Conditions{Latency: 1000 * time.Millisecond, Jitter: 100 * time.Millisecond, Loss: 0.50, BurstLen: 8}},
}

// Presets returns the presets in key order, 1 to 7, in a new slice the
// caller may modify. They follow the latency table of the design notes:
//
//	key name     latency  jitter  loss
//	1   perfect     0 ms    0 ms  0
//	2   lan         5 ms    1 ms  0
//	3   good       40 ms    6 ms  0.2%
//	4   average   100 ms   15 ms  2%
//	5   bad       250 ms   30 ms  10%
//	6   terrible  500 ms   50 ms  25%, bursts of 4 packets on average
//	7   outage   1000 ms  100 ms  50%, bursts of 8 packets on average
//
// Choices the table leaves open:
//   - Jitter may reorder packets (InOrder false), as on real paths.
//   - "In bursts" is the Gilbert-Elliott model (see Conditions.BurstLen).
//     Terrible loses runs of 4 packets on average (about 60 ms at 64 Hz)
//     between good runs of 12; outage loses runs of 8 (125 ms at 64 Hz)
//     between good runs of 8, long enough to starve the redundant inputs
//     of a 64 Hz client now and then.
//   - No duplication and no bandwidth limit: duplication is rare on real
//     paths and is better exercised on its own (set Duplicate), and the
//     bandwidth a game needs depends on the game, not on the preset.
func Presets() []Preset {
	p := presets
	return p[:]
}

// PresetByName returns the preset with the given name, ignoring case and
// surrounding space. An unknown name is an error that lists the valid ones.
func PresetByName(name string) (Preset, error) {
	n := strings.TrimSpace(name)
	for _, p := range presets {
		if strings.EqualFold(p.Name, n) {
			return p, nil
		}
	}
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return Preset{}, fmt.Errorf("netsim: unknown preset %q, want one of %s", name, strings.Join(names, ", "))
}

// PresetByKey returns the preset selected by key 1 to 7.
func PresetByKey(key int) (Preset, error) {
	if key < 1 || key > len(presets) {
		return Preset{}, fmt.Errorf("netsim: no preset for key %d, want 1 to %d", key, len(presets))
	}
	return presets[key-1], nil
}
