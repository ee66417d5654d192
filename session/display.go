package session

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/predict"
)

// DisplayTrack is the one smoothing path of a shown client, in process or
// against a remote server: each frame it moves the client's smoother on
// and keeps the largest frame-to-frame move of the displayed cube that
// corrections caused.
type DisplayTrack struct {
	MaxMove float64 // metres
	last    mgl64.Vec3
}

// Frame advances c's display by dt seconds: the smoothing offset decays.
func (d *DisplayTrack) Frame(c *predict.Client, dt float64) {
	c.Smooth.Update(dt)
	off, _ := c.Smooth.Offset()
	t := c.TakeTeleport()
	move := off.Sub(d.last).Add(mgl64.Vec3{t.X, t.Y, t.Z}).Len()
	d.last = off
	d.MaxMove = math.Max(d.MaxMove, move)
}

// DisplayPose returns the displayed pose of c's cube: its physics pose
// plus the smoothing offset.
func DisplayPose(c *predict.Client) (mgl64.Vec3, mgl64.Quat) {
	b := c.World().Body(c.Body())
	return c.Smooth.Display(b.Pos, b.Rot)
}
