//go:build cgo

package window

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// over blends colour c with alpha c[3] over below, as the window draws a
// ghost's faces over the player's cube.
func over(c, below mgl32.Vec4) mgl32.Vec4 {
	a := c[3]
	return mgl32.Vec4{a*c[0] + (1-a)*below[0], a*c[1] + (1-a)*below[1], a*c[2] + (1-a)*below[2], 1}
}

// TestThePlayersCubeReadsAsRedUnderItsGhosts: the player's cube seen
// through the server's and the snapshot's ghosts (in process), or the
// snapshot's alone (-connect), lit or in shade, stays red: red well above
// green and blue, and nearer its own colour than any slot's. The old
// colours gave brown (red 1.7 times green) and a purple near slot 1.
func TestThePlayersCubeReadsAsRedUnderItsGhosts(t *testing.T) {
	lit := func(c mgl32.Vec4, light float32) mgl32.Vec4 { // the ghosts' faces are lit as the cube's
		return mgl32.Vec4{c[0] * light, c[1] * light, c[2] * light, c[3]}
	}
	for _, light := range []float32{1, 0.55} { // a lit face, a face in shade
		base := lit(ColorPlayer, light)
		server, snapshot := lit(ColorServer, light), lit(colorSnapshot, light)
		for _, seen := range []struct {
			name string
			c    mgl32.Vec4
		}{
			{"both ghosts", over(snapshot, over(server, base))},
			{"the snapshot's ghost", over(snapshot, base)},
		} {
			c := seen.c
			if c[0] < 2.5*c[1] || c[0] < 2.5*c[2] {
				t.Errorf("light %v, %s: %v does not read as red", light, seen.name, c)
			}
			own := c.Sub(base).Vec3().Len()
			for slot, sc := range SlotColors {
				sc = lit(sc, light)
				if d := c.Sub(sc).Vec3().Len(); d <= own {
					t.Errorf("light %v, %s: %v is as near slot %d's colour %v as its own", light, seen.name, c, slot, sc)
				}
			}
		}
	}
}
