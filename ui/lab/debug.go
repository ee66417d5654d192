package lab

import (
	"github.com/cubelab/cube/physics"
	"github.com/cubelab/cube/predict"
)

// Layer is one layer of the debug drawing: what the step and the rewinds
// did, drawn over the scene (ui/window draws them).
type Layer int

// The layers, each on its own key (ActContacts and after, in this order).
const (
	LayerContacts   Layer = iota // contact points, normals scaled by the normal impulse, friction impulses
	LayerBounds                  // the broad phase's bounds and its pairs
	LayerIslands                 // bodies tinted by island, sleeping ones dark
	LayerColours                 // contact points in their solver colour
	LayerRewind                  // the bodies the last rewinds re-simulated, fading over HeatSeconds
	LayerCorrection              // the bodies that differed at the last correction, predicted to server
	LayerVelocities              // an arrow per awake body
	NumLayers
)

// LayerNames name the layers on the HUD.
var LayerNames = [NumLayers]string{"contacts", "bounds", "islands", "colours", "rewind", "correction", "velocities"}

// HeatSeconds is how long the rewind layer's tint of a re-simulated body
// takes to fade: frequent rewinds keep their bodies lit, a heat map.
const HeatSeconds = 1.0

// Debug is the debug drawing's state and the views it draws, computed
// each frame for the layers that are on only: with every layer off it
// costs nothing, and the client keeps no correction.
type Debug struct {
	On [NumLayers]bool

	// Contacts are the shown world's contacts (contacts and colours).
	Contacts []physics.ContactView
	// Island is each body's island (physics.World.Islands), and Islands
	// their number (islands).
	Island  []int32
	Islands int
	// Pairs are the last step's broad-phase pairs (bounds).
	Pairs [][2]int32
	// Heat is each body's rewind tint, 1 when a replay of the last frame
	// re-simulated it (every replay of the frame, however many ticks it
	// ran), fading to 0 over HeatSeconds (rewind).
	Heat []float32
	// Correction is the last correction the client kept (correction).
	Correction predict.Correction

	list []int32 // reused by TakeReplayed
}

// Any reports whether a layer is on.
func (d *Debug) Any() bool {
	for _, on := range d.On {
		if on {
			return true
		}
	}
	return false
}

// update computes the views of the layers that are on from client c, and
// fades the rewind tint by elapsed seconds.
func (d *Debug) update(c *predict.Client, elapsed float64) {
	c.KeepCorrection = d.On[LayerCorrection]
	w := c.World()
	d.UpdateWorld(w)
	if d.On[LayerCorrection] {
		d.Correction = c.Correction()
	}
	c.KeepReplayed = d.On[LayerRewind]
	if !d.On[LayerRewind] {
		d.Heat = d.Heat[:0]
		return
	}
	list, n, full := c.TakeReplayed(d.list[:0])
	d.list = list
	if len(d.Heat) != w.NumBodies() {
		d.Heat = make([]float32, w.NumBodies())
		return // a replay made before the layer was on is not shown
	}
	fade := float32(elapsed / HeatSeconds)
	for i := range d.Heat {
		d.Heat[i] = max(0, d.Heat[i]-fade)
	}
	if n == 0 {
		return
	}
	if full {
		for i := range d.Heat {
			d.Heat[i] = 1
		}
		return
	}
	for _, b := range list {
		if int(b) < len(d.Heat) {
			d.Heat[b] = 1
		}
	}
}

// UpdateWorld computes the views of world w for the layers that are on
// and draw a world alone: contacts, colours, bounds and islands.
func (d *Debug) UpdateWorld(w *physics.World) {
	d.Contacts = d.Contacts[:0]
	if d.On[LayerContacts] || d.On[LayerColours] {
		d.Contacts = w.ContactViews(d.Contacts)
	}
	d.Islands = 0
	if d.On[LayerIslands] {
		d.Island, d.Islands = w.Islands(d.Island)
	}
	d.Pairs = d.Pairs[:0]
	if d.On[LayerBounds] {
		d.Pairs = w.Pairs(d.Pairs)
	}
}

// hudLine names the layers that are on, for the HUD.
func (d *Debug) hudLine() string {
	var buf [80]byte
	b := buf[:0]
	for k, on := range d.On {
		if on {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = append(b, LayerNames[k]...)
		}
	}
	return string(b)
}

// ParseLayers turns a comma-separated list of layer names, or "all", into
// the layers to switch on.
func ParseLayers(list string) ([NumLayers]bool, error) {
	var on [NumLayers]bool
	if list == "" {
		return on, nil
	}
	for _, name := range splitComma(list) {
		if name == "all" {
			for k := range on {
				on[k] = true
			}
			continue
		}
		found := false
		for k, n := range LayerNames {
			if n == name {
				on[k], found = true, true
			}
		}
		if !found {
			return on, &layerError{name}
		}
	}
	return on, nil
}

type layerError struct{ name string }

func (e *layerError) Error() string {
	return "unknown debug layer " + e.name + " (want all or a list of contacts, bounds, islands, colours, rewind, correction, velocities)"
}

// splitComma splits s at commas.
func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
